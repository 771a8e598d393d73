// Min/max pyramid: built once at load, then any range min/max, next or
// previous valid sample costs O(FANOUT * levels), not O(samples).
import {
  Channel, L0_SHIFT, L0_SIZE, FANOUT_SHIFT, FANOUT, MAX_LEVELS,
  value, isValid, levelOffset, levelBlocks, levelBase, blockHasValid,
} from './layout';
import { alloc } from './memory';
import { scanInto, scanRange, scanReset, scanFinish, scanMin, scanMax } from './scan';

/** Allocates and fills l0, lv and offsets of `ch` (values must be loaded). */
export function buildPyramid(ch: Channel): void {
  const n = ch.n;
  let nb0 = (n + L0_SIZE - 1) >> L0_SHIFT;
  if (nb0 < 1) nb0 = 1;
  ch.nb0 = nb0;
  // Count the levels above 0: keep going until one block covers everything.
  let levels = 1;
  let total = 0;
  let count = nb0;
  while (count > 1 && levels < MAX_LEVELS) {
    count = (count + FANOUT - 1) >> FANOUT_SHIFT;
    total += count;
    levels++;
  }
  ch.levels = levels;
  ch.offsets = alloc(<usize>(levels + 1) << 2);
  ch.lv = alloc(<usize><i32>(total > 0 ? total : 1) << 4);
  ch.l0 = alloc(<usize>nb0 << 4);
  ch.edges = alloc(<usize>((nb0 + 3) >> 2));
  memory.fill(ch.edges, 0, <usize>((nb0 + 3) >> 2));
  store<i32>(ch.offsets, 0);
  let off = 0;
  count = nb0;
  for (let k = 1; k <= levels; k++) {
    store<i32>(ch.offsets + (<usize>k << 2), off);
    count = (count + FANOUT - 1) >> FANOUT_SHIFT;
    off += count;
  }

  // Level 0 from the samples.
  for (let b = 0; b < nb0; b++) {
    const from = b << L0_SHIFT;
    let to = from + L0_SIZE;
    if (to > n) to = n;
    const rec = ch.l0 + (<usize>b << 4);
    if (to <= from) {
      // An empty channel still has one (empty) block.
      v128.store(rec, f32x4.splat(NaN));
      continue;
    }
    scanRange(ch.values, ch.values, from, to);
    if (scanMin > scanMax) {
      v128.store(rec, f32x4.splat(NaN));
    } else {
      let f = from;
      while (!isValid(value(ch, f))) f++;
      let l = to - 1;
      while (!isValid(value(ch, l))) l--;
      store<f32>(rec, scanMin);
      store<f32>(rec + 4, scanMax);
      store<f32>(rec + 8, value(ch, f));
      store<f32>(rec + 12, value(ch, l));
    }
    const bits = (isValid(value(ch, from)) ? 0 : 1) | (isValid(value(ch, to - 1)) ? 0 : 2);
    const at = ch.edges + (<usize>b >> 2);
    store<u8>(at, load<u8>(at) | <u8>(bits << ((b & 3) << 1)));
  }
  // Each level from the entries of the one below; an all-missing block has NaN min and max.
  for (let k = 1; k < levels; k++) {
    const nBelow = levelBlocks(ch, k - 1);
    const below = levelBase(ch, k - 1);
    const here = levelBase(ch, k);
    const nHere = levelBlocks(ch, k);
    for (let b = 0; b < nHere; b++) {
      const from = b << FANOUT_SHIFT;
      let to = from + FANOUT;
      if (to > nBelow) to = nBelow;
      const rec = here + (<usize>b << 4);
      scanRange(below, below, from << 2, to << 2);
      if (scanMin > scanMax) {
        v128.store(rec, f32x4.splat(NaN));
        continue;
      }
      let f = from;
      while (!isValid(load<f32>(below + (<usize>f << 4) + 8))) f++;
      let l = to - 1;
      while (!isValid(load<f32>(below + (<usize>l << 4) + 12))) l--;
      store<f32>(rec, scanMin);
      store<f32>(rec + 4, scanMax);
      store<f32>(rec + 8, load<f32>(below + (<usize>f << 4) + 8));
      store<f32>(rec + 12, load<f32>(below + (<usize>l << 4) + 12));
    }
  }
}

/** Folds level k blocks [lo, hi) into the scan accumulators. */
@inline
function scanLevel(ch: Channel, k: i32, lo: i32, hi: i32): void {
  const base = levelBase(ch, k);
  scanInto(base, base, lo << 2, hi << 2);
}

/**
 * Min and max of the valid samples in [s, e) into scanMin/scanMax
 * (+Inf/-Inf when there is none). Exact: edges are resolved down to samples.
 */
export function rangeMinMax(ch: Channel, s: i32, e: i32): void {
  scanReset();
  if (e - s < 2 * L0_SIZE) {
    scanInto(ch.values, ch.values, s, e);
    scanFinish();
    return;
  }
  const a = (s + L0_SIZE - 1) & ~(L0_SIZE - 1);
  const b = e & ~(L0_SIZE - 1);
  scanInto(ch.values, ch.values, s, a);
  scanInto(ch.values, ch.values, b, e);
  let lo = a >> L0_SHIFT;
  let hi = b >> L0_SHIFT;
  const top = ch.levels - 1;
  for (let k = 0; ; k++) {
    if (hi - lo < 2 * FANOUT || k == top) {
      scanLevel(ch, k, lo, hi);
      break;
    }
    const la = (lo + FANOUT - 1) & ~(FANOUT - 1);
    const hb = hi & ~(FANOUT - 1);
    scanLevel(ch, k, lo, la);
    scanLevel(ch, k, hb, hi);
    lo = la >> FANOUT_SHIFT;
    hi = hb >> FANOUT_SHIFT;
  }
  scanFinish();
}

/** log2 of the samples in a block of level k. */
@inline
export function blockShift(k: i32): i32 {
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
    if (blockHasValid(ch, k, idx)) {
      while (k > 0) {
        k--;
        idx <<= FANOUT_SHIFT;
        while (!blockHasValid(ch, k, idx)) idx++;
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
    if (blockHasValid(ch, k, idx)) {
      while (k > 0) {
        k--;
        idx = (idx << FANOUT_SHIFT) + FANOUT - 1;
        const last = levelBlocks(ch, k) - 1;
        if (idx > last) idx = last;
        while (!blockHasValid(ch, k, idx)) idx--;
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
