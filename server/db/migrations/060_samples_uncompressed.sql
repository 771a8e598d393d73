-- Samples and their gzip binary form are stored as they are, not pglz-compressed by TOAST:
-- a night's chunks are written twice as fast (the compression pass was the cost, in the
-- embedded database's WebAssembly most of all) and read without a decompression; the
-- binary form is gzip already. See docs/decisions/0961-samples-stored-uncompressed.md.
alter table recording_chunks alter column data set storage external;
alter table recording_channel_wire alter column gzip set storage external;
