-- How many of a channel's samples are valid (not missing by the engine's rules, engine/valid-count.ts),
-- counted when its samples are stored: the night list tells a channel with samples but no valid
-- one (a real oximeter that recorded nothing all night) from a channel with data, so the night
-- screen opens on charts that draw something. Null: not counted (stored before this migration,
-- or a live night still recording); read as its sample count, as before.
alter table recording_channels add column valid_count bigint;
