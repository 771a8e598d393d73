-- Histories and questionnaires (issue 17 point 3, spec 2 §2, §3 "History entries", §7).
--
-- History entries: symptoms, medication and diet plan, each a timestamp and a value
-- (symptom_medication_value), written by the physician's practice on the Patient details
-- tab and listed in the Summary. Edits keep who wrote and when; a removal is a flag, so the
-- record stays auditable.
create table patient_history_entries (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  kind text not null check (kind in ('symptom', 'medication', 'diet_plan')),
  -- The instant the entry is about (ms UTC), shown in the patient's time zone.
  entry_ms bigint not null,
  symptom_medication_value text not null check (length(symptom_medication_value) between 1 and 500),
  created_by integer not null references users (id),
  updated_by integer not null references users (id),
  created_date timestamptz not null default now(),
  updated_date timestamptz not null default now(),
  delete_flag smallint not null default 0 check (delete_flag in (0, 1))
);
create index patient_history_entries_patient on patient_history_entries (patient_id, kind, entry_ms desc);

-- Questionnaire answers: the device screening of the add-patient wizard (spec 1 §4), kept
-- with the allocation it cleared, and the check-up questionnaire answered for a completed
-- check-up. Answers are a JSON object question → answer, checked by the server against the
-- questionnaire's questions (server/patients/questionnaires.ts). Rows are never changed:
-- answering a check-up again adds a row, the newest one counts.
create table questionnaire_answers (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  questionnaire text not null check (questionnaire in ('screening', 'checkup')),
  device_user_map_id integer references device_allocations (device_user_map_id) on delete set null,
  checkup_date_id integer references checkup_dates (checkup_date_id) on delete set null,
  answers jsonb not null,
  answered_by integer not null references users (id),
  answered_at timestamptz not null default now()
);
create index questionnaire_answers_patient on questionnaire_answers (patient_id, answered_at desc);
