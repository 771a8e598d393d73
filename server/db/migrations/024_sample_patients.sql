-- Sample patients (issue 17 point 2, spec 1 §2 and spec 2 §2): de-identified copies of nights
-- that annotators add as teaching material. A sample patient is one created by the fixed
-- system user id 2112; it is owned by that account (so no practice's patient lists, devices
-- or notifications ever hold it) and belongs to the practice it was made in, whose
-- physicians and annotators read it (never edit it).

-- The system account: no password matches its hash and sign-in refuses role 'system'.
insert into users (id, email, password_hash, first_name, last_name, role, status)
  values (2112, 'system-2112@nocturne.invalid', '!', 'Sample', 'Patients', 'system', 'disabled')
  on conflict (id) do nothing;

-- The practice (its physician's user id) whose members see the sample patient.
alter table patients add column sample_practice_id integer references users (id) on delete cascade;
alter table patients add constraint patients_sample_owner
  check (sample_practice_id is null or (physician_id = 2112 and created_by = 2112));
-- A practice's sample patients are told apart by name (the add dialog lists them by it); the
-- index also serves the practice's list.
create unique index patients_sample_name on patients (sample_practice_id, lower(first_name)) where sample_practice_id is not null;
