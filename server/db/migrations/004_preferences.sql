-- Per-physician display preferences (spec 2 §3 "Physician preferences").
-- json, not jsonb: the key order of a channel map is the chart order and must be kept.
create table physician_preferences (
  physician_id integer primary key references users (id) on delete cascade,
  kpi_order_preference json,
  trendview_kpi_order_preference json,
  updated_by integer references users (id),
  updated_at timestamptz not null default now()
);
