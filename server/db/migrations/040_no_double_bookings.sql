-- No overlapping bookings by any path (issue 33 point 4): a device holds one patient at a
-- time and a patient one device at a time, enforced by the database itself.
--
-- An exclusion constraint on (device, time range) needs btree_gist for the device's
-- equality; instead each booking is one numeric range that puts the owner's id above every
-- millisecond of time (id × 10^15 + ms, ms within ±10^14, i.e. ±3,000 years), so two ranges
-- overlap exactly when the owner is the same and the times overlap. numrange's GiST support
-- is built in on PostgreSQL and PGlite alike, so no extension has to be installed.

-- Overlaps a past bug let through are resolved first: the later booking is cancelled.
update device_allocations b set status = 'cancelled', updated_at = now()
where b.status = 'booked' and exists (
  select 1 from device_allocations a
  where a.status = 'booked' and a.device_user_map_id < b.device_user_map_id
    and (a.device_master_id = b.device_master_id or a.patient_id = b.patient_id)
    and a.allocation_ms < b.deallocation_ms and a.deallocation_ms > b.allocation_ms
);

alter table device_allocations
  add constraint device_allocations_ms_bounds check (allocation_ms > -100000000000000 and deallocation_ms < 100000000000000),
  add constraint device_allocations_device_free exclude using gist (
    numrange(device_master_id * 1000000000000000::numeric + allocation_ms, device_master_id * 1000000000000000::numeric + deallocation_ms) with &&
  ) where (status = 'booked'),
  add constraint device_allocations_patient_free exclude using gist (
    numrange(patient_id * 1000000000000000::numeric + allocation_ms, patient_id * 1000000000000000::numeric + deallocation_ms) with &&
  ) where (status = 'booked');
