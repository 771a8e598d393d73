-- The access trail (issue 33 point 8): who read or changed what, when, from where, with what outcome.
-- Append-only: no update, delete or truncate, whoever asks (the application has no way to rewrite history).
create table audit_trail (
  id bigserial primary key,
  at_ms bigint not null,
  user_id integer,
  user_email text,
  user_role text,
  ip text,
  method text not null,
  route text not null,
  patient_id integer,
  recording_id integer,
  detail text,
  status integer not null,
  request_id text
);
create index audit_trail_patient on audit_trail (patient_id, at_ms desc) where patient_id is not null;
create index audit_trail_user on audit_trail (user_id, at_ms desc);

create function audit_trail_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_trail is append-only';
end
$$;
create trigger audit_trail_no_update before update or delete on audit_trail for each row execute function audit_trail_append_only();
create trigger audit_trail_no_truncate before truncate on audit_trail for each statement execute function audit_trail_append_only();
