-- Device configuration (issue 15 point 6): every version of a device's configuration, who
-- made it, what changed, and whether the device applied or refused it. Plus each user's
-- real-time dashboard layout.
create table device_configs (
  id integer generated always as identity primary key,
  device_master_id integer not null references devices (device_master_id) on delete cascade,
  version integer not null check (version >= 1),
  config jsonb not null,
  -- [{ "field": "radar.range_m", "from": 2.5, "to": 3 }]
  changes jsonb not null,
  created_by integer references users (id),
  created_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'applied', 'refused')),
  status_reason text,
  status_at timestamptz,
  unique (device_master_id, version)
);

create table realtime_layouts (
  user_id integer primary key references users (id) on delete cascade,
  layout jsonb not null,
  updated_at timestamptz not null default now()
);
