-- Recorded nights: one row per device night, its channels, their samples in chunks, and events.

create table recordings (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  device_id text,
  timezone text not null,
  start_ms bigint not null,
  stop_ms bigint not null check (stop_ms >= start_ms),
  -- Unix seconds of 00:00 UTC of the local date the night began on (spec 2: night key).
  night_key bigint not null,
  source text not null check (source in ('simulated', 'edf', 'csv', 'device')),
  recording_meta jsonb not null default '{}',
  created_by integer references users (id),
  created_at timestamptz not null default now()
);
create index recordings_patient_night on recordings (patient_id, night_key);

create table recording_channels (
  id integer generated always as identity primary key,
  recording_id integer not null references recordings (id) on delete cascade,
  code text not null,
  label text not null,
  unit text not null default '',
  sample_rate double precision not null check (sample_rate > 0),
  t0_ms bigint not null,
  storage text not null check (storage in ('int16', 'float32')),
  scale double precision not null default 1,
  offset_value double precision not null default 0,
  sample_count integer not null check (sample_count >= 0),
  unique (recording_id, code)
);

-- Samples little-endian, SAMPLES_PER_CHUNK a chunk, in seq order.
create table recording_chunks (
  channel_id integer not null references recording_channels (id) on delete cascade,
  seq integer not null,
  data bytea not null,
  primary key (channel_id, seq)
);

create table recording_events (
  id integer generated always as identity primary key,
  recording_id integer not null references recordings (id) on delete cascade,
  onset_ms bigint not null,
  duration_ms bigint not null default 0 check (duration_ms >= 0),
  text text not null,
  -- 'file': found in an imported file; 'truth': a simulator's ground truth.
  source text not null check (source in ('file', 'truth'))
);
create index recording_events_recording on recording_events (recording_id, onset_ms);
