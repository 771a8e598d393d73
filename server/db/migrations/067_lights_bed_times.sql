-- A night's files' "Lights off" / "Lights on" markers are its bed times when no physician
-- corrected them (decision 1023). Analyses and statistics stored before were computed over the
-- whole recording: dropped for the nights that have such markers (recomputed when next read),
-- with a new revision so an analysis running across this start stores nothing stale.
update recordings set correction_rev = correction_rev + 1
where id in (select recording_id from recording_events where source = 'file' and text ilike '%light%');
delete from night_analyses where recording_id in (select recording_id from recording_events where source = 'file' and text ilike '%light%');
delete from night_channel_stats where recording_id in (select recording_id from recording_events where source = 'file' and text ilike '%light%');
