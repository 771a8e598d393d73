-- Whole-night statistics of a night's channels (min, max, mean, percentiles), computed by the
-- signal engine once and read by every screen that shows them (summary, report, trend, the
-- dashboard's triage table), so each figure has one source. Cleared when a file joins the night.
create table night_channel_stats (
  recording_id integer not null references recordings (id) on delete cascade,
  code text not null,
  engine_version text not null,
  stats jsonb not null,
  computed_at timestamptz not null default now(),
  primary key (recording_id, code)
);
