-- Dashboard notifications (spec 1 §3 "Physician notification", §4): one per night of a
-- physician's patient, with the night's apnea and hypopnea count; read when clicked.

create table physician_notifications (
  id integer generated always as identity primary key,
  physician_id integer not null references users (id),
  patient_id integer not null references patients (id) on delete cascade,
  recording_id integer not null unique references recordings (id) on delete cascade,
  night bigint not null,
  apnea_events integer not null,
  is_read smallint not null default 0 check (is_read in (0, 1)),
  created_at timestamptz not null default now()
);
create index physician_notifications_physician on physician_notifications (physician_id, night desc);
