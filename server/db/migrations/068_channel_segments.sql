-- The sessions a channel joins (a CPAP night's mask sessions): each one's own first-sample time,
-- where its samples start in the channel and how many (ChannelData.segments). A later upload of
-- the same night places every session again on its own nearest sample of the night's grid, so
-- sessions uploaded in any order and split make the same channel as one upload of them all.
-- Null: one session, from t0_ms (every channel stored before this).
alter table recording_channels add column segments jsonb;
