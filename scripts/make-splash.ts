// Draws the login splash (brand gradient with soft bands) as PNG in four resolutions into web/public.
// Run once when the branding changes: `npx tsx scripts/make-splash.ts`; the PNGs are committed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const sizes = { low: 480, medium: 960, high: 1440, xl: 1920 } as const;
const primary = [0x52, 0x22, 0x39];
const secondary = [0x98, 0x12, 0x39];
const tertiary = [0x1f, 0x7b, 0xa3];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, tail]);
};

const mix = (a: number[], b: number[], t: number) => a.map((v, i) => Math.round(v + ((b[i] as number) - v) * t));

function png(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const offset = y * (width * 3 + 1);
    rows[offset] = 0;
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      let colour = mix(primary, secondary, Math.min(1, u * 0.7 + v * 0.5));
      const band = Math.sin((u * 2.2 - v * 1.3) * Math.PI * 2);
      if (band > 0.75) colour = mix(colour, tertiary, (band - 0.75) * 1.2);
      colour.forEach((value, i) => {
        rows[offset + 1 + x * 3 + i] = value;
      });
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const [name, width] of Object.entries(sizes)) {
  writeFileSync(new URL(`../web/public/splash-${name}.png`, import.meta.url), png(width, Math.round((width * 9) / 16)));
}
