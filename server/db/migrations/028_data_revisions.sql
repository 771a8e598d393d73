-- Revisions of what the trend answer is made of (issue 18 point 4): every insert, update or
-- delete of a row the trend reads appends a row here, by trigger, so no code path that changes
-- an input can forget to. A patient's revision is the newest rev of scope 'patient:<id>'
-- (the patient's row, recordings, channels, stored analyses and statistics, corrections); a
-- practice's analytics settings are scope 'settings:<physician id>'. Revisions come from one
-- sequence, so a scope's newest rev only grows; append-only, so writers never wait on each
-- other here. Older rows of a scope are pruned by the server (never the newest).
create sequence data_revision_seq;
create table data_revisions (
  scope text not null,
  rev bigint not null default nextval('data_revision_seq')
);
create index data_revisions_scope on data_revisions (scope, rev);

create function data_rev_patient() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then insert into data_revisions (scope) values ('patient:' || old.id); end if;
  if tg_op <> 'DELETE' then insert into data_revisions (scope) values ('patient:' || new.id); end if;
  return null;
end $$;

create function data_rev_by_patient_id() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then insert into data_revisions (scope) values ('patient:' || old.patient_id); end if;
  if tg_op <> 'DELETE' then insert into data_revisions (scope) values ('patient:' || new.patient_id); end if;
  return null;
end $$;

-- A row of a recording: its patient's scope (none when the recording is gone, deleted with it:
-- the recording's own trigger noted the change).
create function data_rev_by_recording_id() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    insert into data_revisions (scope) select 'patient:' || r.patient_id from recordings r where r.id = old.recording_id;
  end if;
  if tg_op <> 'DELETE' then
    insert into data_revisions (scope) select 'patient:' || r.patient_id from recordings r where r.id = new.recording_id;
  end if;
  return null;
end $$;

create function data_rev_settings() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then insert into data_revisions (scope) values ('settings:' || old.physician_id); end if;
  if tg_op <> 'DELETE' then insert into data_revisions (scope) values ('settings:' || new.physician_id); end if;
  return null;
end $$;

create trigger patients_data_rev after insert or update or delete on patients for each row execute function data_rev_patient();
create trigger recordings_data_rev after insert or update or delete on recordings for each row execute function data_rev_by_patient_id();
create trigger night_corrections_data_rev after insert or update or delete on night_corrections for each row execute function data_rev_by_patient_id();
create trigger recording_channels_data_rev after insert or update or delete on recording_channels for each row execute function data_rev_by_recording_id();
create trigger night_analyses_data_rev after insert or update or delete on night_analyses for each row execute function data_rev_by_recording_id();
create trigger night_channel_stats_data_rev after insert or update or delete on night_channel_stats for each row execute function data_rev_by_recording_id();
create trigger physician_preferences_data_rev after insert or update or delete on physician_preferences for each row execute function data_rev_settings();
