-- Patients, conditions and devices (the allocation tables come with device management).

create table diseases (
  disease_id integer primary key,
  disease_description text not null,
  disease_shortname text not null
);

insert into diseases (disease_id, disease_description, disease_shortname) values
  (1, 'None', 'None'),
  (2, 'Obstructive sleep apnoea', 'OSA'),
  (3, 'Central sleep apnoea', 'CSA'),
  (4, 'Insomnia', 'INS'),
  (5, 'Hypertension', 'HTN'),
  (6, 'Heart failure', 'HF'),
  (7, 'Atrial fibrillation', 'AF'),
  (8, 'Chronic obstructive pulmonary disease', 'COPD'),
  (9, 'Asthma', 'AST'),
  (10, 'Type 2 diabetes', 'T2D'),
  (11, 'Obesity', 'OBE'),
  (12, 'Restless legs syndrome', 'RLS'),
  (13, 'Narcolepsy', 'NAR'),
  (14, 'Depression', 'DEP'),
  (15, 'Chronic kidney disease', 'CKD');

create table patients (
  id integer generated always as identity primary key,
  patient_code text not null unique check (patient_code ~ '^\w{1,20}$'),
  physician_id integer not null references users (id),
  created_by integer not null references users (id),
  first_name text not null default '',
  last_name text not null default '',
  email_id text not null default '',
  gender text check (gender in ('M', 'F', 'O')),
  date_of_birth date,
  at_risk smallint check (at_risk in (0, 1, 2)),
  height numeric(5, 2),
  weight numeric(5, 2),
  bmi numeric(6, 2),
  vital_parameters jsonb,
  comment text not null default '',
  country text,
  address text not null default '',
  tags text not null default '',
  active_flag boolean not null default true,
  phys_device_return_date timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index patients_physician on patients (physician_id);

create table patient_diseases (
  patient_id integer not null references patients (id) on delete cascade,
  disease_id integer not null references diseases (disease_id),
  primary key (patient_id, disease_id)
);

create table devices (
  device_master_id integer generated always as identity primary key,
  device_id text not null unique,
  physician_id integer references users (id),
  created_at timestamptz not null default now()
);
