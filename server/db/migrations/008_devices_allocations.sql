-- Device allocation: devices lent to physicians for ranges, deployed to patients for nights.

alter table patients add column password_hash text;
alter table patients add column unread_data_nights integer not null default 0;

create table physician_devices (
  id integer generated always as identity primary key,
  device_master_id integer not null references devices (device_master_id) on delete cascade,
  physician_id integer not null references users (id),
  from_ms bigint not null,
  to_ms bigint not null check (to_ms > from_ms)
);
create index physician_devices_device on physician_devices (device_master_id);

create table device_allocations (
  device_user_map_id integer generated always as identity primary key,
  device_master_id integer not null references devices (device_master_id),
  patient_id integer not null references patients (id) on delete cascade,
  physician_id integer not null references users (id),
  allocation_ms bigint not null,
  deallocation_ms bigint not null check (deallocation_ms > allocation_ms),
  window_start_time text not null default '19:00:00',
  window_end_time text not null default '11:00:00',
  timezone text not null,
  status text not null default 'booked' check (status in ('booked', 'returned', 'cancelled')),
  returned_ms bigint,
  created_by integer not null references users (id),
  created_at timestamptz not null default now(),
  updated_by integer references users (id),
  updated_at timestamptz not null default now()
);
create index device_allocations_device on device_allocations (device_master_id) where status = 'booked';
create index device_allocations_patient on device_allocations (patient_id);

create table deploy_requests (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  device_master_id integer not null references devices (device_master_id),
  allocation_ms bigint not null,
  deallocation_ms bigint not null check (deallocation_ms > allocation_ms),
  timezone text not null,
  requested_by integer not null references users (id),
  status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
  decided_by integer references users (id),
  decided_at timestamptz,
  decision_note text not null default '',
  created_at timestamptz not null default now()
);
