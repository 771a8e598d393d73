/** The per-epoch channels: SLP_STGS (device stage codes), SA (sleep/awake) and TB (in/out of bed). */
import type { ChannelData } from '../recordings/model';
import { CODE, INT16_SCALE, RATE_HZ, SA_CODE, STAGE, TB_CODE } from './constants';
import { int16Channel } from './channel';
import type { Hypnogram } from './hypnogram';

/** Builds SLP_STGS, SA and TB at one sample per 30-s epoch (int16, scale 1). */
export function epochChannels(hypnogram: Hypnogram, t0: number): ChannelData[] {
  const n = hypnogram.stages.length;
  const stages = new Int16Array(n);
  const sa = new Int16Array(n);
  const tb = new Int16Array(n);
  for (let e = 0; e < n; e++) {
    const stage = hypnogram.stages[e]!;
    stages[e] = stage;
    sa[e] = stage === STAGE.awake ? SA_CODE.awake : SA_CODE.asleep;
    tb[e] = hypnogram.inBed[e] ? TB_CODE.inBed : TB_CODE.outOfBed;
  }
  return [
    int16Channel(CODE.SLP_STGS, RATE_HZ.epoch, t0, stages, INT16_SCALE.code),
    int16Channel(CODE.SA, RATE_HZ.epoch, t0, sa, INT16_SCALE.code),
    int16Channel(CODE.TB, RATE_HZ.epoch, t0, tb, INT16_SCALE.code),
  ];
}
