-- Paged annotation lists (issue 36 point 1): a page of a night's annotations is read from its
-- cursor (start_ms, annotation_map_id) on in that order, by this index rather than a sort of the night.
create index annotations_night_start on annotations (patient_id, night, start_ms, annotation_map_id);
