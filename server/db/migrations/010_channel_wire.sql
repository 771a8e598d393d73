-- Each channel's binary form (engine/wire.ts), gzip-compressed once when the night is
-- stored: recordings never change, so the engine's endpoint serves it as it is.
create table recording_channel_wire (
  channel_id integer primary key references recording_channels (id) on delete cascade,
  gzip bytea not null
);
