-- Revisions of what the trend answer is made of (issue 18 point 4): every insert, update or
-- delete of a row the trend reads gives its scope a new revision, by trigger, so no code path
-- that changes an input can forget to. Scope 'patient:<id>': the patient's row, recordings,
-- channels, stored analyses and statistics, corrections; 'settings:<physician id>': a practice's
-- analytics settings. One row per scope, set to a new value of one sequence by each transaction
-- that changes it: the triggers are deferred to commit, so the row is locked only while the
-- transaction commits, and a revision seen by a reader is never seen again once another
-- transaction's change is committed (an append-only log would not do: a transaction that drew
-- an older number could commit after a newer one and leave the newest number unchanged).
create sequence data_revision_seq;
create table data_revisions (
  scope text primary key,
  rev bigint not null default nextval('data_revision_seq')
);

create function data_rev_note(which text) returns void language sql as $$
  insert into data_revisions (scope) values ($1) on conflict (scope) do update set rev = nextval('data_revision_seq');
$$;

-- A row naming its scope in one of its columns: trigger arguments (scope prefix, column),
-- e.g. ('patient', 'id') on patients, ('patient', 'patient_id') on recordings.
create function data_rev_by_column() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform data_rev_note(tg_argv[0] || ':' || (to_jsonb(old) ->> tg_argv[1])); end if;
  if tg_op <> 'DELETE' then perform data_rev_note(tg_argv[0] || ':' || (to_jsonb(new) ->> tg_argv[1])); end if;
  return null;
end $$;

-- A row of a recording: its patient's scope (none when the recording is gone by commit, deleted
-- with it: the recording's own trigger notes the change).
create function data_rev_by_recording_id() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform data_rev_note('patient:' || r.patient_id) from recordings r where r.id = old.recording_id;
  end if;
  if tg_op <> 'DELETE' then
    perform data_rev_note('patient:' || r.patient_id) from recordings r where r.id = new.recording_id;
  end if;
  return null;
end $$;

create constraint trigger patients_data_rev after insert or update or delete on patients deferrable initially deferred for each row execute function data_rev_by_column('patient', 'id');
-- A batch of live device frames (server/live/ingest.ts commitBatch) marks its transaction
-- 'nocturne.live_frames' = on: its updates of a live night's stop time and sample counts note
-- nothing (a constraint trigger's WHEN is checked at the update, so no event is even queued).
-- A trend answer holding a live night is never kept, and the night's start, its end (live off,
-- compacted) and every analysis of it are written outside such batches and do note; without
-- this, 1,000 devices' batches spent their commits on thousands of notes (ack p99 73 s).
create constraint trigger recordings_data_rev after insert or update or delete on recordings deferrable initially deferred for each row when (current_setting('nocturne.live_frames', true) is distinct from 'on') execute function data_rev_by_column('patient', 'patient_id');
create constraint trigger night_corrections_data_rev after insert or update or delete on night_corrections deferrable initially deferred for each row execute function data_rev_by_column('patient', 'patient_id');
create constraint trigger recording_channels_data_rev after insert or update or delete on recording_channels deferrable initially deferred for each row when (current_setting('nocturne.live_frames', true) is distinct from 'on') execute function data_rev_by_recording_id();
create constraint trigger night_analyses_data_rev after insert or update or delete on night_analyses deferrable initially deferred for each row execute function data_rev_by_recording_id();
create constraint trigger night_channel_stats_data_rev after insert or update or delete on night_channel_stats deferrable initially deferred for each row execute function data_rev_by_recording_id();
create constraint trigger physician_preferences_data_rev after insert or update or delete on physician_preferences deferrable initially deferred for each row execute function data_rev_by_column('settings', 'physician_id');
