/** EDF / EDF+ import and export: the public face of this folder. */
export { writeEdfPlus, writeNightFile } from './writer';
