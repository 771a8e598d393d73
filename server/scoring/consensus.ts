/**
 * Disagreements among a round's human scorers and the consensus made of them (decision 0989),
 * pure. Events: overlapping marks of one category across scorers form a cluster; a cluster
 * where every scorer has exactly one mark is agreed (its consensus mark spans the mean start to
 * the mean end, on the union of the channels), any other is a disagreement. Stages: epochs
 * where the scorers' stages differ, consecutive epochs with the same options one item.
 */
import type { Decision } from '../../contract/scoring-rounds';
import { epochMarks, epochStart, eventCategoryOf, stageOf, type EpochGrid, type ScoredMark, type ScorerMarks } from './agreement';

/** One scorer's marks inside a disagreement (none: they scored nothing there). */
interface ItemOption {
  scorer: string;
  marks: ScoredMark[];
}

/** A disagreement: an event cluster or a run of epochs, with each scorer's marks in it. */
interface Item {
  item: string;
  kind: 'event' | 'stage';
  category: string;
  startMs: number;
  endMs: number;
  options: ItemOption[];
  /** Epochs of a stage item: [first, last]. */
  epochs?: [number, number];
}

/** What the human scorers agreed on, and where they differ. */
export interface Disagreements {
  items: Item[];
  /** Consensus marks of the agreed event clusters. */
  agreedEvents: ScoredMark[];
  /** Per epoch: the agreed stage's mark, null where no scorer staged it, undefined where they differ. */
  epochs: (ScoredMark | null | undefined)[];
  /** Agreed event clusters plus agreed runs of epochs. */
  agreed: number;
}

interface Member {
  mark: ScoredMark;
  scorer: number;
}

/** Marks of one category across the scorers, in clusters of marks overlapping one another (transitively). */
function clustersOf(humans: readonly ScorerMarks[], category: string): Member[][] {
  const all: Member[] = humans.flatMap((s, scorer) => s.marks.filter((m) => stageOf(m.labelName) === null && eventCategoryOf(m.labelName) === category).map((mark) => ({ mark, scorer })));
  all.sort((a, b) => a.mark.startMs - b.mark.startMs || a.mark.endMs - b.mark.endMs || a.scorer - b.scorer);
  const out: Member[][] = [];
  let end = -Infinity;
  for (const m of all) {
    if (out.length > 0 && m.mark.startMs < end) out.at(-1)!.push(m);
    else out.push([m]);
    end = out.at(-1)!.length === 1 ? m.mark.endMs : Math.max(end, m.mark.endMs);
  }
  return out;
}

/** The union of the marks' channels, in the order first named. */
const unionKpi = (marks: readonly ScoredMark[], fallback = 'AP_timing') => [...new Set(marks.flatMap((m) => m.kpi.split(',').filter(Boolean)))].join(',') || fallback;

/** The consensus mark of an agreed cluster: mean start to mean end, channels united, the label most scorers gave (ties: the earlier scorer's). */
function consensusMark(members: readonly Member[]): ScoredMark {
  const n = members.length;
  const votes = new Map<number, number>();
  for (const m of members) votes.set(m.mark.label, (votes.get(m.mark.label) ?? 0) + 1);
  const byScorer = [...members].sort((a, b) => a.scorer - b.scorer);
  const best = byScorer.reduce((top, m) => ((votes.get(m.mark.label) ?? 0) > (votes.get(top.mark.label) ?? 0) ? m : top), byScorer[0]!);
  return {
    startMs: Math.round(members.reduce((s, m) => s + m.mark.startMs, 0) / n),
    endMs: Math.round(members.reduce((s, m) => s + m.mark.endMs, 0) / n),
    label: best.mark.label,
    labelName: best.mark.labelName,
    kpi: unionKpi(byScorer.map((m) => m.mark)),
  };
}

/** Event clusters: agreed ones to consensus marks, the others to items. */
function eventItems(humans: readonly ScorerMarks[], out: Disagreements): void {
  const categories = [...new Set(humans.flatMap((s) => s.marks.filter((m) => stageOf(m.labelName) === null).map((m) => eventCategoryOf(m.labelName))))].sort();
  for (const category of categories) {
    for (const members of clustersOf(humans, category)) {
      const counts = humans.map((_, i) => members.filter((m) => m.scorer === i).length);
      if (counts.every((c) => c === 1)) {
        out.agreedEvents.push(consensusMark(members));
        out.agreed++;
        continue;
      }
      const startMs = Math.min(...members.map((m) => m.mark.startMs));
      const endMs = Math.max(...members.map((m) => m.mark.endMs));
      const options = humans.map((s, i) => ({ scorer: s.key, marks: members.filter((m) => m.scorer === i).map((m) => m.mark) }));
      out.items.push({ item: `event:${category}:${startMs}`, kind: 'event', category, startMs, endMs, options });
    }
  }
}

/** Stage epochs: agreed ones kept per epoch, runs of epochs with the same differing stages to items. */
function stageItems(grid: EpochGrid, humans: readonly ScorerMarks[], out: Disagreements): void {
  const idx = humans.map((s) => epochMarks(grid, s.marks));
  const markAt = (s: number, e: number) => (idx[s]![e]! < 0 ? null : humans[s]!.marks[idx[s]![e]!]!);
  let run: { key: string; from: number } | null = null;
  let agreedRun = false;
  const close = (to: number) => {
    if (!run) return;
    const startMs = epochStart(grid, run.from);
    const endMs = epochStart(grid, to + 1);
    const options = humans.map((s, i) => {
      const m = markAt(i, run!.from);
      return { scorer: s.key, marks: m ? [{ ...m, startMs, endMs }] : [] };
    });
    out.items.push({ item: `stage:${startMs}`, kind: 'stage', category: 'stage', startMs, endMs, options, epochs: [run.from, to] });
    run = null;
  };
  for (let e = 0; e < grid.count; e++) {
    const marks = humans.map((_, i) => markAt(i, e));
    const stages = marks.map((m) => (m ? stageOf(m.labelName) : null));
    const key = stages.join('|');
    if (stages.every((s) => s === stages[0])) {
      close(e - 1);
      out.epochs[e] = marks[0] ?? null;
      // A run of agreed epochs counts once, as an agreed event cluster does.
      if (stages[0] !== null && !agreedRun) out.agreed++;
      agreedRun = stages[0] !== null;
      continue;
    }
    agreedRun = false;
    out.epochs[e] = undefined;
    if (run && run.key !== key) close(e - 1);
    run ??= { key, from: e };
  }
  close(grid.count - 1);
}

/** Where the human scorers of a round differ, and what they agreed on. */
export function disagreementsOf(grid: EpochGrid, humans: readonly ScorerMarks[]): Disagreements {
  const out: Disagreements = { items: [], agreedEvents: [], epochs: new Array(grid.count).fill(null), agreed: 0 };
  eventItems(humans, out);
  stageItems(grid, humans, out);
  out.items.sort((a, b) => a.startMs - b.startMs || a.item.localeCompare(b.item));
  return out;
}

/** A decision's marks for an item; `nameOf` names a category id of the practice. */
function decidedMarks(item: Item, decision: Decision, nameOf: (label: number) => string): ScoredMark[] {
  if (decision.kind === 'none') return [];
  if (decision.kind === 'scorer') return item.options.find((o) => o.scorer === decision.scorer)?.marks ?? [];
  const kpi = unionKpi(item.options.flatMap((o) => o.marks));
  return [{ startMs: decision.start_ms, endMs: decision.end_ms, label: decision.label, labelName: nameOf(decision.label), kpi }];
}

/** Consecutive epochs of the same stage as one mark each. */
function mergeEpochs(grid: EpochGrid, epochs: readonly (ScoredMark | null | undefined)[]): ScoredMark[] {
  const out: ScoredMark[] = [];
  for (let e = 0; e < epochs.length; e++) {
    const m = epochs[e];
    if (!m) continue;
    const last = out.at(-1);
    if (last && last.label === m.label && last.endMs === epochStart(grid, e)) last.endMs = epochStart(grid, e + 1);
    else out.push({ ...m, startMs: epochStart(grid, e), endMs: epochStart(grid, e + 1) });
  }
  return out;
}

/**
 * The consensus of a round: the agreed marks and every item's decision (an item without one
 * contributes nothing; finish refuses while any is undecided), stages merged per run of epochs.
 */
export function consensusOf(grid: EpochGrid, d: Disagreements, decisions: ReadonlyMap<string, Decision>, nameOf: (label: number) => string): ScoredMark[] {
  const epochs = [...d.epochs];
  const marks = [...d.agreedEvents];
  for (const item of d.items) {
    const decision = decisions.get(item.item);
    const decided = decision ? decidedMarks(item, decision, nameOf) : [];
    if (item.kind === 'event' || decision?.kind === 'mark') {
      marks.push(...decided);
      if (item.epochs) for (let e = item.epochs[0]; e <= item.epochs[1]; e++) epochs[e] = null;
      continue;
    }
    for (let e = item.epochs![0]; e <= item.epochs![1]; e++) epochs[e] = decided[0] ?? null;
  }
  return [...marks, ...mergeEpochs(grid, epochs)].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}
