-- Manual corrections of a night (issue 17 point 4, spec 2 "Actions: manual corrections"): the
-- physician moves the night's bed-in/bed-out or marks a span invalid (a second person in the
-- room, the device moved). Samples are never changed: the analysis reads the night through
-- its active corrections. Rows are never deleted: an undo sets undone_at/undone_by, so the
-- record of who corrected what, when and why stays.
create table night_corrections (
  id integer generated always as identity primary key,
  recording_id integer not null references recordings (id) on delete cascade,
  patient_id integer not null references patients (id) on delete cascade,
  kind text not null check (kind in ('bed_times', 'invalid_span')),
  -- bed_times: bed-in and bed-out; invalid_span: the span's start and end (ms UTC).
  start_ms bigint not null,
  end_ms bigint not null check (end_ms > start_ms),
  reason text not null check (length(reason) between 1 and 500),
  created_by integer not null references users (id),
  created_at timestamptz not null default now(),
  undone_by integer references users (id),
  undone_at timestamptz,
  check ((undone_by is null) = (undone_at is null))
);
create index night_corrections_recording on night_corrections (recording_id, id);

-- Bumped by every correction and undo: a cached analysis or statistic computed from an older
-- state of the night's corrections is not stored (see server/analytics/corrections.ts).
alter table recordings add column correction_rev integer not null default 0;
