-- Device summaries (issue 31 point 7): a therapy device's own daily summary (ResMed STR.edf, one
-- record per noon-to-noon day), stored per patient and day, beside the nights: the device's AHI
-- and indices, usage and mask on/off times. day is the device's day (the date of its noon start);
-- a night of that evening shows it (night key = that date at 00:00 UTC). Imported again, a day is
-- replaced (the newest card says the most). A summary file is no night: no recording is made.
create table device_summaries (
  patient_id integer not null references patients(id) on delete cascade,
  day date not null,
  vendor text not null,
  file_name text not null,
  ahi double precision,
  hi double precision,
  ai double precision,
  oai double precision,
  cai double precision,
  uai double precision,
  usage_min double precision,
  -- [{ "on_ms": …, "off_ms": … }] ms UTC, in the device's order.
  mask_sessions jsonb not null default '[]',
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (patient_id, day)
);

create constraint trigger device_summaries_data_rev after insert or update or delete on device_summaries deferrable initially deferred for each row execute function data_rev_by_column('patient', 'patient_id');
