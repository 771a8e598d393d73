-- Patient IDs that differ only by case are one ID (issue 32.12): 'nct1001' beside 'NCT1001' is
-- refused as a duplicate ("Patient ID already exist"). Patient IDs were already unique across
-- the server (devices and imports find a patient by its ID), so the case-insensitive rule is too.
-- IDs already stored twice in different case keep the oldest; each later one gets its row id
-- appended ('nct1001_57'), so no patient is lost and every ID stays within 20 word characters.

update patients p set patient_code = left(p.patient_code, 19 - length(p.id::text)) || '_' || p.id
where exists (select 1 from patients q where lower(q.patient_code) = lower(p.patient_code) and q.id < p.id);

create unique index patients_code_lower on patients (lower(patient_code));
