// The Real Time charts' axes: what their labels say for one draw (LivePlot writes them).
/** A chart's time range, ms since the epoch. */
export interface PlotRange {
  t0: number;
  t1: number;
}

/** What the axes say, in the UI language. */
export interface PlotAxes {
  value: (v: number, step: number) => string;
  time: (ms: number) => string;
  valueLabel: string;
  timeLabel: string;
  /** Shown over the plot when the series has samples but none in the window (a gap). */
  gap: string;
}

/** Ticks on each axis: both ends and the middle. */
export const TICKS = 3;

/** What a draw showed: its value range and how many of its columns had samples, of a series of `samples`. */
export interface Drawn {
  lo: number;
  hi: number;
  filled: number;
  samples: number;
}

/**
 * The axes' labels: values top to bottom (none while the window shows no sample), times start
 * to end, and whether the window falls in a gap (the series has samples, the window none).
 */
export function axisLabels(axes: PlotAxes, drawn: Drawn, win: PlotRange): { values: string[]; times: string[]; gap: boolean } {
  const out = { values: [] as string[], times: [] as string[], gap: drawn.samples > 0 && drawn.filled === 0 };
  for (let i = 0; i < TICKS; i++) {
    const f = i / (TICKS - 1);
    out.values.push(drawn.filled > 0 ? axes.value(drawn.hi - f * (drawn.hi - drawn.lo), drawn.hi - drawn.lo) : '');
    out.times.push(axes.time(win.t0 + f * (win.t1 - win.t0)));
  }
  return out;
}
