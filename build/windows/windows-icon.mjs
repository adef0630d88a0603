// The Windows icon (.ico) of the connector, made from its 256-pixel PNG: the sizes Explorer, the Start
// menu and Apps & features ask for (16, 24, 32, 48, 64, 256), each a 32-bit bitmap with alpha, which the
// NSIS installer, its uninstaller and the program's own resources all accept. Deterministic: the same PNG
// gives the same bytes.
import fs from 'node:fs';
import { PNG } from 'pngjs';

const SIZES = [16, 24, 32, 48, 64, 256];

/** Box-filter downscale of RGBA pixels, averaging premultiplied colour so edges do not darken. */
function downscale(source, sourceSize, size) {
  const out = Buffer.alloc(size * size * 4);
  const scale = sourceSize / size;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      let r = 0, g = 0, b = 0, a = 0, n = 0;
      for (let sy = Math.floor(y * scale); sy < Math.floor((y + 1) * scale); sy += 1) {
        for (let sx = Math.floor(x * scale); sx < Math.floor((x + 1) * scale); sx += 1) {
          const i = (sy * sourceSize + sx) * 4;
          const alpha = source[i + 3];
          r += source[i] * alpha; g += source[i + 1] * alpha; b += source[i + 2] * alpha; a += alpha; n += 1;
        }
      }
      const o = (y * size + x) * 4;
      out[o] = a ? Math.round(r / a) : 0;
      out[o + 1] = a ? Math.round(g / a) : 0;
      out[o + 2] = a ? Math.round(b / a) : 0;
      out[o + 3] = Math.round(a / n);
    }
  }
  return out;
}

/** One icon image as an ICO stores it: BITMAPINFOHEADER, BGRA rows bottom-up, then a 1-bit AND mask. */
function bitmapEntry(rgba, size) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows plus mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      pixels[to] = rgba[from + 2];
      pixels[to + 1] = rgba[from + 1];
      pixels[to + 2] = rgba[from];
      pixels[to + 3] = rgba[from + 3];
    }
  }
  const maskRow = Math.ceil(size / 32) * 4; // all zero: the alpha channel decides
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * size)]);
}

export function icoFromPng(pngBytes) {
  const png = PNG.sync.read(pngBytes);
  if (png.width !== png.height) throw new Error(`the icon PNG must be square, not ${png.width}x${png.height}`);
  const images = SIZES.map((size) => ({ size, data: bitmapEntry(size === png.width ? png.data : downscale(png.data, png.width, size), size) }));
  const directory = Buffer.alloc(6 + 16 * images.length);
  directory.writeUInt16LE(0, 0);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(images.length, 4);
  let offset = directory.length;
  images.forEach(({ size, data }, index) => {
    const at = 6 + index * 16;
    directory.writeUInt8(size >= 256 ? 0 : size, at);
    directory.writeUInt8(size >= 256 ? 0 : size, at + 1);
    directory.writeUInt16LE(1, at + 4); // planes
    directory.writeUInt16LE(32, at + 6); // bits per pixel
    directory.writeUInt32LE(data.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += data.length;
  });
  return Buffer.concat([directory, ...images.map((image) => image.data)]);
}

export function writeIco(pngFile, icoFile) {
  fs.writeFileSync(icoFile, icoFromPng(fs.readFileSync(pngFile)));
}
