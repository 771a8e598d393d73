-- Patient details tab (spec 2 §2, §3): comments on a patient and check-up dates.

create table patient_comments (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  user_id integer not null references users (id),
  comment text not null check (length(comment) between 1 and 10240),
  created_date timestamptz not null default now(),
  updated_date timestamptz not null default now(),
  delete_flag smallint not null default 0 check (delete_flag in (0, 1))
);
create index patient_comments_patient on patient_comments (patient_id, created_date desc);

create table checkup_dates (
  checkup_date_id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  doctor_id integer not null references users (id),
  checkup_date date not null,
  mark_as_complete_flag smallint not null default 0 check (mark_as_complete_flag in (0, 1)),
  created_at timestamptz not null default now(),
  unique (patient_id, checkup_date)
);
