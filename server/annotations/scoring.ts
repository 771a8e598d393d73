/**
 * A night's scoring as marks (start, duration, label, channels) for the scoring files, and
 * a file's marks attached to a night as annotations (issue 36 point 4). The file formats
 * live in nsrr.ts and edf-annotations.ts; the label meanings in scoring-labels.ts.
 */
import type { ScoringSource } from '../../contract/night-rules';
import type { Queryable } from '../db/adapter';
import { ApiError } from '../errors';
import { mapLabel } from '../recordings/labels';
import { listChannels, loadEvents, type RecordingRow } from '../recordings/store';
import { scoredStageOf, type ScoredStage } from '../recordings/edf/hypnogram';
import { loadDeviceEvents, deviceAnnotations } from './device';
import { MAX_CATEGORIES } from './categories';
import { listCategories, type CategoryRow } from './repository';
import { KNOWN_KPIS } from './format';
import { categoryNameOf, CATEGORY_NAME_MAX } from './scoring-labels';
import { blindRounds, seesDeviceEvents, visibleMarkSql } from '../scoring/visibility';

/** One mark of a scoring: a span on one or more channels under one label. */
export interface ScoringMark {
  startMs: number;
  durationMs: number;
  /** Category name (or, for a device event, its own text). */
  label: string;
  channels: string[];
  /** Set for device-scored events: their kind (device_events.kind). */
  deviceKind?: string;
  /** Set for a sleep stage of the night's own files (a hypnogram's epoch): what it scores; `label` is its text as written, `channels` empty. */
  fileStage?: ScoredStage;
}

/** Annotation types by who made them: people (their own and edited detector marks) or Nocturne's detectors. */
const HUMAN_TYPES = ['custom', 'system-edit'];
const AUTOMATIC_TYPES = ['system', 'desaturation'];

/**
 * The night's live marks from `source` that `viewer` may see (decision 0989): people's and
 * Nocturne's annotations (of one author when `author` is given), then the device-scored
 * events and the sleep stages of the night's own files (a hypnogram; decision 1034), not when
 * an author is asked for: no person made them here.
 */
export async function nightMarks(db: Queryable, night: RecordingRow, patient: { id: number; physician_id: number }, viewer: number, source: ScoringSource, author?: number): Promise<ScoringMark[]> {
  const types = source === 'human' ? HUMAN_TYPES : source === 'automatic' ? AUTOMATIC_TYPES : source === 'all' ? [...HUMAN_TYPES, ...AUTOMATIC_TYPES] : [];
  const rows = types.length
    ? await db.query<{ start_ms: number; end_ms: number; kpi: string; category: string | null; label: number }>(
        `select a.start_ms, a.end_ms, a.kpi, c.label as category, a.label
         from annotations a left join annotation_categories c on c.label_id = a.label
         where a.recording_id = $1 and a.delete_flag = 0 and a.type = any($2::text[]) and ($3::int is null or a.created_by = $3)
           and ${visibleMarkSql('a', '$4')}
         order by a.start_ms, a.annotation_map_id`,
        [night.id, types, author ?? null, viewer],
      )
    : [];
  const marks: ScoringMark[] = rows.map((r) => ({
    startMs: Number(r.start_ms),
    durationMs: Number(r.end_ms) - Number(r.start_ms),
    label: r.category ?? `Label ${r.label}`,
    channels: r.kpi.split(','),
  }));
  if ((source === 'all' || source === 'device') && author === undefined && seesDeviceEvents(await blindRounds(db, viewer, [night.id]), night.id)) {
    const events = await loadDeviceEvents(db, [night.id]);
    // The channel each device event is drawn on (the breathing trace, oximetry for desaturations).
    const drawn = new Map((await deviceAnnotations(db, patient.id, patient.physician_id, [night])).map((d) => [-d.annotation_map_id, d.kpi]));
    for (const e of events) {
      marks.push({ startMs: Number(e.onset_ms), durationMs: Number(e.duration_ms), label: e.text, channels: [drawn.get(e.id) ?? 'AP_timing'], deviceKind: e.kind });
    }
    for (const e of await loadEvents(db, night.id, 'file')) {
      const stage = scoredStageOf(e.text, Number(e.durationMs) / 1000);
      if (stage !== null) marks.push({ startMs: Number(e.onsetMs), durationMs: Number(e.durationMs), label: e.text, channels: [], fileStage: stage });
    }
  }
  return marks.sort((a, b) => a.startMs - b.startMs);
}

/** One entry of a file: a label on at most one channel (a file writes a mark per channel). */
export interface FileEntry {
  startMs: number;
  durationMs: number;
  label: string;
  channel: string | null;
}

/** Entries of one mark (same start, duration and label, next to each other) joined into it. */
function joinChannels(entries: readonly FileEntry[]): Array<Omit<FileEntry, 'channel'> & { channels: (string | null)[] }> {
  const out: Array<Omit<FileEntry, 'channel'> & { channels: (string | null)[] }> = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (last && last.startMs === e.startMs && last.durationMs === e.durationMs && last.label === e.label && !last.channels.includes(e.channel)) last.channels.push(e.channel);
    else out.push({ startMs: e.startMs, durationMs: e.durationMs, label: e.label, channels: [e.channel] });
  }
  return out;
}

/** What an import did, for the answer. */
export interface ImportOutcome {
  imported: number;
  /** Marks already on the night (same start, end, category and channels): not added twice. */
  duplicates: number;
  /** Marks outside the night's recording: not added. */
  outside: number;
  /** Marks of no duration (instants), kept as 1 s. */
  instants: number;
  categories_created: string[];
  /** File label → the category it was filed under. */
  labels: Record<string, string>;
  /** Channels the file named that the night lacks (or none named), and where the marks went. */
  channels_substituted: Array<{ from: string | null; to: string; count: number }>;
  annotation_ids: number[];
}

/** An instant (no duration) is kept as a 1-s mark: an annotation needs a span. */
const INSTANT_MS = 1000;
/** The recording's bounds as the annotation calls allow them (server/annotations/annotations.ts). */
const EDGE_MS = 1000;
/** Colours for created categories, in order; one not used by the patient's categories is taken. */
const PALETTE = ['#2E86C1', '#28B463', '#8E44AD', '#D4AC0D', '#17A589', '#CA6F1E', '#C0392B', '#5D6D7E', '#1ABC9C', '#AF7AC5', '#F1948A', '#76D7C4', '#F7DC6F', '#85929E', '#A04000', '#1F618D'];
const BREATHING = ['NC_PSG', 'Y_DIST', 'THRX_PSG', 'ABD_PSG'];
const OXIMETRY = ['SPO2', 'SPO2_PSG'];

/** The channel a mark of `category` goes on when the file names none the night has. */
function fallbackChannel(category: string, codes: ReadonlySet<string>): string {
  const c = category.toLowerCase();
  if (c === 'apnea' || c === 'hypoapnea') return BREATHING.find((k) => codes.has(k)) ?? 'AP_timing';
  if (c === 'desaturation') return OXIMETRY.find((k) => codes.has(k)) ?? 'DSAT';
  // Stages, and anything else (arousals, limb movements, lights off …): the night's sleep-stage row.
  return 'SLP_STGS';
}

/** roundId: the round whose scorer's set the marks go to (null: marks of record, decision 0989). */
type ImportInput = { night: RecordingRow; patient: { id: number; physician_id: number }; userId: number; roundId: number | null; entries: readonly FileEntry[]; categoryMap: Record<string, string>; labelMap: Record<string, string> };

/** The category each label of the file goes to (its name), and the names of those to create. */
function categoryNames(input: ImportInput, byName: ReadonlyMap<string, CategoryRow>) {
  const labels: Record<string, string> = {};
  const wanted = new Map<string, string>();
  for (const label of new Set(input.entries.map((e) => e.label))) {
    const first = label.split('|')[0]!.trim();
    const name = (input.categoryMap[label] ?? (byName.has(first.toLowerCase()) ? first : categoryNameOf(label))).trim().slice(0, CATEGORY_NAME_MAX);
    if (!name) throw new ApiError(422, 'scoring_label_empty', 'A mark of the file has no label.');
    labels[label] = byName.get(name.toLowerCase())?.label ?? name;
    if (!byName.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  }
  return { labels, wanted };
}

/** Creates the wanted categories (refused past the patient's maximum), each in a colour the patient's categories do not use yet. */
async function createCategories(tx: Queryable, input: ImportInput, categories: readonly CategoryRow[], wanted: ReadonlyMap<string, string>, byName: Map<string, CategoryRow>): Promise<CategoryRow[]> {
  if (categories.length + wanted.size > MAX_CATEGORIES) {
    throw new ApiError(
      422,
      'too_many_categories',
      `The file needs ${wanted.size} new categories (${[...wanted.values()].join(', ')}), but this patient may have ${MAX_CATEGORIES} and has ${categories.length}. Map some of the file's labels to existing categories, or delete unused categories first.`,
      { params: { needed: wanted.size, labels: [...wanted.values()].join(', '), max: MAX_CATEGORIES, has: categories.length } },
    );
  }
  const created: CategoryRow[] = [];
  const colours = new Set(categories.map((c) => c.color_code));
  for (const name of wanted.values()) {
    const color = PALETTE.find((p) => !colours.has(p)) ?? PALETTE[created.length % PALETTE.length]!;
    colours.add(color);
    const [row] = await tx.query<CategoryRow>(
      `insert into annotation_categories (label, color_code, type, patient_id, doctor_id, created_by, updated_by) values ($1, $2, 'custom', $3, $4, $5, $5) returning *`,
      [name, color, input.patient.id, input.patient.physician_id, input.userId],
    );
    await tx.query(`insert into annotation_history (label_id, action, version, changed_by, previous, current) values ($1, 'create', 1, $2, null, $3)`, [row.label_id, input.userId, JSON.stringify(row)]);
    created.push(row);
    byName.set(name.toLowerCase(), row);
  }
  return created;
}

/** Which night channel a mark's channel goes on (the night's code, the label map's, else the category's usual one), counting substitutions. */
function channelResolver(codes: ReadonlySet<string>, labelMap: Record<string, string>) {
  const substituted = new Map<string, { from: string | null; to: string; count: number }>();
  const channelOf = (given: string | null, category: string): string => {
    if (given !== null) {
      if (codes.has(given) || KNOWN_KPIS.has(given)) return given;
      const mapped = mapLabel(given, labelMap);
      if (codes.has(mapped)) return mapped;
    }
    const to = fallbackChannel(category, codes);
    const k = `${given ?? ''}\u0000${to}`;
    const s = substituted.get(k) ?? { from: given, to, count: 0 };
    s.count++;
    substituted.set(k, s);
    return to;
  };
  return { channelOf, substituted };
}

/** The night's marks as columns for one insert. */
interface MarkColumns {
  kpi: string[];
  start: number[];
  end: number[];
  label: number[];
  color: string[];
}

/** The marks to insert (those outside the night and those the night already has left out, and counted). */
async function planMarks(tx: Queryable, input: ImportInput, labels: Record<string, string>, byName: ReadonlyMap<string, CategoryRow>, channelOf: (given: string | null, category: string) => string) {
  const { night } = input;
  const existing = new Set(
    (await tx.query<{ start_ms: number; end_ms: number; label: number; kpi: string }>('select start_ms, end_ms, label, kpi from annotations where recording_id = $1 and delete_flag = 0 and scoring_round_id is not distinct from $2', [night.id, input.roundId])).map(
      (a) => `${Number(a.start_ms)}/${Number(a.end_ms)}/${a.label}/${a.kpi}`,
    ),
  );
  const rows: MarkColumns = { kpi: [], start: [], end: [], label: [], color: [] };
  const counts = { duplicates: 0, outside: 0, instants: 0 };
  for (const m of joinChannels(input.entries)) {
    const category = byName.get(labels[m.label]!.toLowerCase())!;
    const start = m.startMs;
    const end = start + (m.durationMs > 0 ? m.durationMs : INSTANT_MS);
    if (start < Number(night.start_ms) - EDGE_MS || end > Number(night.stop_ms) + EDGE_MS) {
      counts.outside++;
      continue;
    }
    if (m.durationMs <= 0) counts.instants++;
    const kpi = [...new Set(m.channels.map((c) => channelOf(c, category.label)))].join(',');
    const id = `${start}/${end}/${category.label_id}/${kpi}`;
    if (existing.has(id)) {
      counts.duplicates++;
      continue;
    }
    existing.add(id);
    rows.kpi.push(kpi);
    rows.start.push(start);
    rows.end.push(end);
    rows.label.push(category.label_id);
    rows.color.push(category.color_code);
  }
  return { rows, ...counts };
}

/** Inserts the marks in batches of 2,000, each creation in the history as one made by the annotation calls would be; their ids. */
async function insertMarks(tx: Queryable, input: ImportInput, rows: MarkColumns): Promise<number[]> {
  const { night, patient } = input;
  const ids: number[] = [];
  const BATCH = 2000;
  for (let from = 0; from < rows.kpi.length; from += BATCH) {
    const slice = <T>(a: T[]) => a.slice(from, from + BATCH);
    const inserted = await tx.query<{ annotation_map_id: number }>(
      `insert into annotations (patient_id, recording_id, night, device_id, type, kpi, start_ms, end_ms, comment, label, color_code, doctor_id, created_by, updated_by, scoring_round_id)
       select $1, $2, $3, $4, 'custom', t.kpi, t.s, t.e, '', t.l, t.c, $5, $6, $6, $12
       from unnest($7::text[], $8::bigint[], $9::bigint[], $10::int[], $11::text[]) with ordinality as t(kpi, s, e, l, c, n)
       order by t.n
       returning annotation_map_id`,
      [patient.id, night.id, night.night_key, night.device_id, patient.physician_id, input.userId, slice(rows.kpi), slice(rows.start), slice(rows.end), slice(rows.label), slice(rows.color), input.roundId],
    );
    const batchIds = inserted.map((r) => r.annotation_map_id);
    await tx.query(
      `insert into annotation_history (annotation_map_id, action, version, changed_by, previous, current)
       select a.annotation_map_id, 'create', 1, $2, null, to_jsonb(a) from annotations a where a.annotation_map_id = any($1::int[])`,
      [batchIds, input.userId],
    );
    ids.push(...batchIds);
  }
  return ids;
}

/**
 * Attaches a file's entries to the night as annotations of `userId` (type custom: people's
 * marks, editable), in one transaction: the categories it needs are created first (refused
 * past the 12 a patient may have), then every mark. Labels go to categories through
 * `categoryMap`, then a category of that name, then the label's meaning
 * ({@link categoryNameOf}); channels through the night's own codes, then the practice's
 * label map, then the category's usual channel.
 */
export async function importMarks(tx: Queryable, input: ImportInput): Promise<ImportOutcome> {
  const { night, patient } = input;
  // Category changes of one patient are serialised (as the category calls do).
  await tx.query('select id from patients where id = $1 for update', [patient.id]);
  const categories = await listCategories(tx, patient.id);
  const byName = new Map(categories.map((c) => [c.label.toLowerCase(), c]));
  const { labels, wanted } = categoryNames(input, byName);
  const created = await createCategories(tx, input, categories, wanted, byName);
  const codes = new Set((await listChannels(tx, [night.id])).map((c) => c.code));
  const { channelOf, substituted } = channelResolver(codes, input.labelMap);
  const { rows, duplicates, outside, instants } = await planMarks(tx, input, labels, byName, channelOf);
  if (rows.kpi.length === 0 && outside > 0) {
    throw new ApiError(422, 'scoring_outside_night', `None of the file's ${outside} marks lies within this night's recording: is it the scoring of another night?`, { params: { marks: outside } });
  }
  const ids = await insertMarks(tx, input, rows);
  return {
    imported: ids.length,
    duplicates,
    outside,
    instants,
    categories_created: created.map((c) => c.label),
    labels,
    channels_substituted: [...substituted.values()],
    annotation_ids: ids,
  };
}
