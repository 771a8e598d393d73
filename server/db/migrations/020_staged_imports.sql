-- Staged imports (issue 13): an import writes a night's samples in short transactions into
-- channels that belong to an import stage, not to a recording, so every reader (they all
-- reach channels through a recording) passes them by; one short final transaction moves
-- them to their night and makes it visible. A failed import removes its stage; a stage left
-- by a crash (not touched for a while, or any at start-up on the embedded database) is
-- removed at start-up and periodically (server/recordings/staging.ts).

create table import_stages (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- Touched by every chunk transaction: a stage left untouched is a crashed import's.
  touched_at timestamptz not null default now()
);

alter table recording_channels alter column recording_id drop not null;
alter table recording_channels add column stage_id integer references import_stages (id) on delete cascade;
alter table recording_channels add constraint recording_channels_owner check ((recording_id is null) <> (stage_id is null));
create index recording_channels_stage on recording_channels (stage_id) where stage_id is not null;
