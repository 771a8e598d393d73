-- One night from many files: every imported file is kept with its content hash (md5), so the
-- same file is not imported twice for a patient; device-scored events (ResMed EVE apneas,
-- PSG scoring …) are kept as read-only device annotations, in real time under their
-- vendor's convention (server/recordings/vendors.ts).

create table recording_files (
  id integer generated always as identity primary key,
  recording_id integer not null references recordings (id) on delete cascade,
  patient_id integer not null references patients (id) on delete cascade,
  file_name text not null,
  md5 text not null check (md5 ~ '^[0-9a-f]{32}$'),
  byte_count bigint not null check (byte_count >= 0),
  format text not null default '',
  created_by integer references users (id),
  created_at timestamptz not null default now(),
  -- Scoped per patient: a duplicate is refused without telling anything about other patients.
  unique (patient_id, md5)
);
create index recording_files_recording on recording_files (recording_id);

create table device_events (
  id integer generated always as identity primary key,
  recording_id integer not null references recordings (id) on delete cascade,
  onset_ms bigint not null,
  duration_ms bigint not null default 0 check (duration_ms >= 0),
  -- What was scored: obstructive_apnea, central_apnea, mixed_apnea, apnea, hypopnea, desaturation, arousal, rera.
  kind text not null,
  -- The annotation's text as written in the file.
  text text not null,
  -- Whose convention placed it ('resmed', 'edf+').
  vendor text not null,
  file_name text not null
);
create index device_events_recording on device_events (recording_id, onset_ms);

-- Nights imported before: their scored file events become device events. The file's own
-- annotations stay in recording_events as written (exports reproduce them).
with scored as (
  select e.recording_id, e.onset_ms, e.duration_ms, e.text, r.recording_meta,
    case
      when e.text ~* '^\s*obstructive\s*apn(o)?ea\s*$' then 'obstructive_apnea'
      when e.text ~* '^\s*central\s*apn(o)?ea\s*$' then 'central_apnea'
      when e.text ~* '^\s*mixed\s*apn(o)?ea\s*$' then 'mixed_apnea'
      when e.text ~* '^\s*(apn(o)?ea|unclassified\s*apn(o)?ea|apn(o)?ea\s*unclassified)\s*$' then 'apnea'
      when e.text ~* '^\s*((obstructive|central)\s*)?hypop(n)?(o)?ea\s*$' then 'hypopnea'
      when e.text ~* '^\s*(oxygen\s*)?desaturation\s*$' then 'desaturation'
      when e.text ~* '^\s*arousal' then 'arousal'
      when e.text ~* '^\s*rera\s*$' then 'rera'
    end as kind,
    (select f ->> 'fileName' from jsonb_array_elements(coalesce(r.recording_meta -> 'files', '[]'::jsonb)) f
      where f ->> 'fileName' ~* '_EVE\.edf$' or coalesce(f ->> 'recording', '') ~ 'SRN=[0-9]+.*MID=[0-9]+' limit 1) as resmed_file,
    (select f ->> 'fileName' from jsonb_array_elements(coalesce(r.recording_meta -> 'files', '[]'::jsonb)) f limit 1) as first_file
  from recording_events e join recordings r on r.id = e.recording_id
  where e.source = 'file'
)
insert into device_events (recording_id, onset_ms, duration_ms, kind, text, vendor, file_name)
select recording_id,
  case when resmed_file is not null then onset_ms - duration_ms else onset_ms end,
  duration_ms, kind, text,
  case when resmed_file is not null then 'resmed' else 'edf+' end,
  coalesce(resmed_file, first_file, '')
from scored where kind is not null;
