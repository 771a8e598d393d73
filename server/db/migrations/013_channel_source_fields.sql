-- Per-channel facts from the source file, so that missing values and an export stay true to it.
--
-- missing_codes: stored values that mean "missing" for this channel. Only our own device
-- (simulated and device nights, and files Nocturne wrote for them) uses the codes -1 and -2;
-- channels read from other tools' EDF/BDF/CSV have none: there a gap is NaN, not a code.
-- transducer, prefiltering: the EDF/BDF signal header fields, kept for the export.
-- edf_range: the source's physical/digital minimum and maximum as written in its header
-- (strings), so that an export writes the same digital values with the same scale back.
alter table recording_channels add column missing_codes jsonb;
alter table recording_channels add column transducer text not null default '';
alter table recording_channels add column prefiltering text not null default '';
alter table recording_channels add column edf_range jsonb;

-- Old rows: our device's nights keep the codes; imported files have none, except the coded
-- channels (sleep quality, apnea flags, body position) that never had codes.
update recording_channels c set missing_codes = case
    when r.source in ('simulated', 'device') and c.code not in ('SQB', 'SA', 'TB') then '[-1, -2]'::jsonb
    else '[]'::jsonb end
  from recordings r where r.id = c.recording_id;
alter table recording_channels alter column missing_codes set default '[]'::jsonb;
alter table recording_channels alter column missing_codes set not null;

-- Their stored wire form says "-1 and -2 are missing": drop it where that is no longer
-- true, so the channel-data route rebuilds it from the samples with the right codes.
delete from recording_channel_wire w using recording_channels c
  where c.id = w.channel_id and c.missing_codes = '[]'::jsonb;
