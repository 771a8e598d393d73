/** EDF / EDF+ import and export: the public face of this folder. */
export { readEdf, type ReadEdfOptions } from './reader';
export { edfToRecording, type EdfToRecordingOptions } from './channels';
export { writeEdfPlus, writeNightFile, type WrittenNight } from './writer';
export type { EdfAnnotation, EdfFile, EdfHeader, EdfSignal, EdfSignalHeader, EdfVariant } from './types';
