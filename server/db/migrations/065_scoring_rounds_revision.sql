-- A double scoring's consensus changes the night's AHI (issue 36 point 2): a round's change of
-- state gives its patient a new data revision, so the trend answers kept under the old one are
-- not served again (decision 0013; the summary is computed per request).
create constraint trigger scoring_rounds_data_rev after insert or update or delete on scoring_rounds deferrable initially deferred for each row execute function data_rev_by_column('patient', 'patient_id');
