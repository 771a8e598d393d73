/**
 * The AppleDouble companion macOS's Finder writes beside each file it copies to a FAT-formatted
 * SD card ("._NAME.edf", 4 KB): magic 0x00051607, version 2, "Mac OS X", one Finder-info entry.
 */
export function appleDouble(): Uint8Array {
  const b = Buffer.alloc(4096);
  b.writeUInt32BE(0x00051607, 0);
  b.writeUInt32BE(0x00020000, 4);
  b.write('Mac OS X        ', 8, 'latin1');
  b.writeUInt16BE(1, 24);
  b.writeUInt32BE(9, 26);
  b.writeUInt32BE(50, 30);
  b.writeUInt32BE(32, 34);
  return new Uint8Array(b);
}
