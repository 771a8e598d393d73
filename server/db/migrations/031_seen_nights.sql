-- Nights the physician has opened (issue 32.4): a night is seen when its notification was read
-- or when its review screen was opened, whichever came first. One row per recording.

create table seen_nights (
  recording_id integer primary key references recordings (id) on delete cascade,
  seen_by integer not null references users (id),
  seen_at timestamptz not null default now()
);
