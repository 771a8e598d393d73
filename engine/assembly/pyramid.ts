// Min/max pyramid: built once at load, then any range min/max, next or
// previous valid sample costs O(FANOUT * levels), not O(samples).
import {
  Channel, L0_SHIFT, L0_SIZE, FANOUT_SHIFT, FANOUT, MAX_LEVELS,
  value, isValid, levelOffset, levelBlocks, levelMin, levelMax,
} from './layout';
import { alloc } from './memory';
import { scanRange, scanReset, scanMin, scanMax } from './scan';

/** Allocates and fills mins/maxs/offsets of `ch` (values must be loaded). */
export function buildPyramid(ch: Channel): void {
  const n = ch.n;
  let total = 0;
  let levels = 0;
  let nb = (n + L0_SIZE - 1) >> L0_SHIFT;
  if (nb < 1) nb = 1;
  // Count levels: keep going until one block covers everything.
  let count = nb;
  while (true) {
    total += count;
    levels++;
    if (count <= 1 || levels == MAX_LEVELS) break;
    count = (count + FANOUT - 1) >> FANOUT_SHIFT;
  }
  ch.levels = levels;
  ch.offsets = alloc(<usize>(levels + 1) << 2);
  ch.mins = alloc(<usize>total << 2);
  ch.maxs = alloc(<usize>total << 2);
  let off = 0;
  count = nb;
  for (let k = 0; k < levels; k++) {
    store<i32>(ch.offsets + (<usize>k << 2), off);
    off += count;
    count = (count + FANOUT - 1) >> FANOUT_SHIFT;
  }
  store<i32>(ch.offsets + (<usize>levels << 2), off);

  // Level 0 from the samples.
  for (let b = 0; b < nb; b++) {
    const from = b << L0_SHIFT;
    let to = from + L0_SIZE;
    if (to > n) to = n;
    scanReset();
    scanRange(ch.values, ch.values, from, to);
    store<f32>(ch.mins + (<usize>b << 2), scanMin);
    store<f32>(ch.maxs + (<usize>b << 2), scanMax);
  }
  // Upper levels from the level below.
  for (let k = 1; k < levels; k++) {
    const below = levelOffset(ch, k - 1);
    const nBelow = levelBlocks(ch, k - 1);
    const here = levelOffset(ch, k);
    const nHere = levelBlocks(ch, k);
    for (let b = 0; b < nHere; b++) {
      const from = b << FANOUT_SHIFT;
      let to = from + FANOUT;
      if (to > nBelow) to = nBelow;
      scanReset();
      scanRange(ch.mins + (<usize>below << 2), ch.maxs + (<usize>below << 2), from, to);
      store<f32>(ch.mins + (<usize>(here + b) << 2), scanMin);
      store<f32>(ch.maxs + (<usize>(here + b) << 2), scanMax);
    }
  }
}

/** Folds levels k blocks [lo, hi) into the scan accumulators. */
@inline
function scanLevel(ch: Channel, k: i32, lo: i32, hi: i32): void {
  const off = <usize>levelOffset(ch, k) << 2;
  scanRange(ch.mins + off, ch.maxs + off, lo, hi);
}

/**
 * Min and max of the valid samples in [s, e) into scanMin/scanMax
 * (+Inf/-Inf when there is none). Exact: edges are resolved down to samples.
 */
export function rangeMinMax(ch: Channel, s: i32, e: i32): void {
  scanReset();
  if (e - s < 2 * L0_SIZE) {
    scanRange(ch.values, ch.values, s, e);
    return;
  }
  const a = (s + L0_SIZE - 1) & ~(L0_SIZE - 1);
  const b = e & ~(L0_SIZE - 1);
  scanRange(ch.values, ch.values, s, a);
  scanRange(ch.values, ch.values, b, e);
  let lo = a >> L0_SHIFT;
  let hi = b >> L0_SHIFT;
  const top = ch.levels - 1;
  for (let k = 0; ; k++) {
    if (hi - lo < 2 * FANOUT || k == top) {
      scanLevel(ch, k, lo, hi);
      return;
    }
    const la = (lo + FANOUT - 1) & ~(FANOUT - 1);
    const hb = hi & ~(FANOUT - 1);
    scanLevel(ch, k, lo, la);
    scanLevel(ch, k, hb, hi);
    lo = la >> FANOUT_SHIFT;
    hi = hb >> FANOUT_SHIFT;
  }
}

@inline
function blockShift(k: i32): i32 {
  return L0_SHIFT + k * FANOUT_SHIFT;
}

/** First valid sample index in [p, e), or e when there is none. */
export function nextValid(ch: Channel, p: i32, e: i32): i32 {
  if (p >= e) return e;
  if (isValid(value(ch, p))) return p;
  let lim = (p + L0_SIZE - 1) & ~(L0_SIZE - 1);
  if (lim > e) lim = e;
  for (let i = p + 1; i < lim; i++) if (isValid(value(ch, i))) return i;
  if (lim >= e) return e;
  let k = 0;
  let idx = lim >> L0_SHIFT;
  const top = ch.levels - 1;
  while (true) {
    if (idx >= levelBlocks(ch, k) || (idx << blockShift(k)) >= e) return e;
    if (levelMin(ch, k, idx) != <f32>Infinity) {
      while (k > 0) {
        k--;
        idx <<= FANOUT_SHIFT;
        while (levelMin(ch, k, idx) == <f32>Infinity) idx++;
      }
      let i = idx << L0_SHIFT;
      while (!isValid(value(ch, i))) i++;
      return i < e ? i : e;
    }
    idx++;
    if ((idx & (FANOUT - 1)) == 0 && k < top) {
      idx >>= FANOUT_SHIFT;
      k++;
    }
  }
}

/** Last valid sample index in [s, p), or -1 when there is none. */
export function prevValid(ch: Channel, p: i32, s: i32): i32 {
  if (p <= s) return -1;
  if (isValid(value(ch, p - 1))) return p - 1;
  let lim = p & ~(L0_SIZE - 1);
  if (lim < s) lim = s;
  for (let i = p - 2; i >= lim; i--) if (isValid(value(ch, i))) return i;
  if (lim <= s) return -1;
  let k = 0;
  let idx = (lim >> L0_SHIFT) - 1;
  const top = ch.levels - 1;
  while (true) {
    if (idx < 0 || ((idx + 1) << blockShift(k)) <= s) return -1;
    if (levelMax(ch, k, idx) != <f32>-Infinity) {
      while (k > 0) {
        k--;
        idx = (idx << FANOUT_SHIFT) + FANOUT - 1;
        const last = levelBlocks(ch, k) - 1;
        if (idx > last) idx = last;
        while (levelMax(ch, k, idx) == <f32>-Infinity) idx--;
      }
      let i = (idx << L0_SHIFT) + L0_SIZE - 1;
      if (i > ch.n - 1) i = ch.n - 1;
      while (!isValid(value(ch, i))) i--;
      return i >= s ? i : -1;
    }
    if ((idx & (FANOUT - 1)) == 0 && k < top) {
      idx = (idx >> FANOUT_SHIFT) - 1;
      k++;
    } else {
      idx--;
    }
  }
}
