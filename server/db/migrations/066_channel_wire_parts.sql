-- A channel's binary form in parts of at most 1 MB (decision 1008), rows (channel_id, part) read
-- in part order and joined. On the embedded database one statement holds every other request:
-- a 10-h 200-Hz channel's 8–12 MB binary form written in one took 56–213 ms, and requests during
-- a 200 MB upload waited p99 159–179 ms. A form stored before this is its own part 0.
alter table recording_channel_wire add column part integer not null default 0;
alter table recording_channel_wire drop constraint recording_channel_wire_pkey;
alter table recording_channel_wire add primary key (channel_id, part);
