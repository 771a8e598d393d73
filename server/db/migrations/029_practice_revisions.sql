-- Revisions of what the dashboard's triage table is made of (issue 18 point 4), beside 028's
-- per-patient scopes: scope 'practice:<physician id>' gets a new revision with every committed
-- insert, update or delete of a row the table reads for that practice (server/routes/triage.ts
-- TRIAGE_SQL): its patients' rows (who is under care, code, name, At Risk flag, device
-- returned), their recordings, channels, stored analyses and statistics, and the practice's
-- analytics settings (which analyses it reads). The practice is the patient's physician_id,
-- as the table selects them (a sample patient: the sample practice 2112's). Same deferred
-- constraint triggers and data_rev_note as 028: the scope row is locked only while a
-- transaction commits.
--
-- A patient moved between practices notes both (data_rev_by_column notes old and new rows).
-- A row of a recording or patient gone by commit notes nothing here: the deleted patient's or
-- recording's own trigger notes the practice.

-- A row naming its patient in patient_id: the patient's practice.
create function data_rev_practice_by_patient_id() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform data_rev_note('practice:' || p.physician_id) from patients p where p.id = old.patient_id;
  end if;
  if tg_op = 'DELETE' then return null; end if;
  -- An update that keeps its patient has noted it already.
  if tg_op = 'UPDATE' then
    if new.patient_id is not distinct from old.patient_id then return null; end if;
  end if;
  perform data_rev_note('practice:' || p.physician_id) from patients p where p.id = new.patient_id;
  return null;
end $$;

-- A row of a recording: its patient's practice.
create function data_rev_practice_by_recording_id() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform data_rev_note('practice:' || p.physician_id) from recordings r join patients p on p.id = r.patient_id where r.id = old.recording_id;
  end if;
  if tg_op = 'DELETE' then return null; end if;
  if tg_op = 'UPDATE' then
    if new.recording_id is not distinct from old.recording_id then return null; end if;
  end if;
  perform data_rev_note('practice:' || p.physician_id) from recordings r join patients p on p.id = r.patient_id where r.id = new.recording_id;
  return null;
end $$;

create constraint trigger patients_practice_rev after insert or update or delete on patients deferrable initially deferred for each row execute function data_rev_by_column('practice', 'physician_id');
-- Live frame batches ('nocturne.live_frames' = on, 028) note nothing here either: the table
-- leaves live nights out, and a night's start and end (live off) are written outside batches.
create constraint trigger recordings_practice_rev after insert or update or delete on recordings deferrable initially deferred for each row when (current_setting('nocturne.live_frames', true) is distinct from 'on') execute function data_rev_practice_by_patient_id();
create constraint trigger recording_channels_practice_rev after insert or update or delete on recording_channels deferrable initially deferred for each row when (current_setting('nocturne.live_frames', true) is distinct from 'on') execute function data_rev_practice_by_recording_id();
create constraint trigger night_analyses_practice_rev after insert or update or delete on night_analyses deferrable initially deferred for each row execute function data_rev_practice_by_recording_id();
create constraint trigger night_channel_stats_practice_rev after insert or update or delete on night_channel_stats deferrable initially deferred for each row execute function data_rev_practice_by_recording_id();
create constraint trigger physician_preferences_practice_rev after insert or update or delete on physician_preferences deferrable initially deferred for each row execute function data_rev_by_column('practice', 'physician_id');
