-- Live devices (issue 15): device keys, the live state of each device, and every committed
-- frame once, so ingest is idempotent on (device, sequence).

-- Keys are stored as scrypt hashes; the key itself is shown once when issued.
create table device_keys (
  id integer generated always as identity primary key,
  device_master_id integer not null references devices (device_master_id) on delete cascade,
  -- First characters of the key, to tell keys apart in lists; not enough to use it.
  key_prefix text not null,
  key_hash text not null,
  created_by integer references users (id),
  created_at timestamptz not null default now(),
  revoked_by integer references users (id),
  revoked_at timestamptz
);
create index device_keys_active on device_keys (device_master_id) where revoked_at is null;

-- One row per device that ever streamed: its last committed frame and its current session.
create table device_live (
  device_master_id integer primary key references devices (device_master_id) on delete cascade,
  last_seq bigint not null default -1,
  -- Server clock (ms UTC) when the last frame committed: streaming / stalled / offline.
  last_frame_ms bigint,
  recording_id integer references recordings (id) on delete set null,
  session_start_ms bigint,
  session_ended boolean not null default false
);

-- Every committed frame: at most once per (device, seq). `layout` gives each channel's first
-- sample index and count ({"BR": [120, 1]}); the samples are the recording's chunks with
-- seq = the frame's seq.
create table live_frames (
  device_master_id integer not null references devices (device_master_id) on delete cascade,
  seq bigint not null check (seq >= 0),
  recording_id integer not null references recordings (id) on delete cascade,
  digest text not null,
  sent_ms bigint not null,
  layout jsonb not null,
  committed_ms bigint not null,
  primary key (device_master_id, seq)
);
create index live_frames_recording on live_frames (recording_id, seq);
