-- Live devices, continued (issue 15): when a device was last heard from at all (a connected
-- device with live streaming off sends heartbeats, no frames: it is not gone), and each live
-- recording's frame totals once its live_frames rows are pruned (after compaction, or older
-- than the newest few hundred of a device), so the validation call still counts them.
alter table device_live add column last_heard_ms bigint;

create table live_frame_totals (
  recording_id integer primary key references recordings (id) on delete cascade,
  device_master_id integer not null references devices (device_master_id) on delete cascade,
  frames integer not null,
  first_seq bigint not null,
  last_seq bigint not null,
  first_ms bigint not null,
  last_ms bigint not null
);
create index live_frame_totals_device on live_frame_totals (device_master_id);
