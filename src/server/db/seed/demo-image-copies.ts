import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { imageCopyRecipe, makeImageCopies } from '../../modules/uploads/image-copies';
import { demoImageCopiesFolder, demoImageCopyFile, demoImagesFolder } from './demo-products';

/** What the copies were made from and with; a build makes them again only when it changes. */
async function stampOf(folder: string, files: string[]): Promise<string> {
  const hash = crypto.createHash('sha256');
  hash.update(await imageCopyRecipe());
  for (const file of files) hash.update(file).update(fs.readFileSync(path.join(folder, file)));
  return hash.digest('hex');
}

/** Makes the copies of every demo picture, unless the copies of these very pictures are there. */
export async function writeDemoImageCopies(): Promise<{ made: number; skipped: boolean }> {
  const source = demoImagesFolder();
  const target = demoImageCopiesFolder();
  if (!target) throw new Error('The demo pictures are copied by the built server (dist/server)');
  const files = fs
    .readdirSync(source)
    .filter((file) => file.endsWith('.png'))
    .sort();
  const stamp = await stampOf(source, files);
  const stampFile = path.join(target, 'stamp.txt');
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp)
    return { made: 0, skipped: true };
  fs.rmSync(target, { recursive: true, force: true });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.rmSync(temporary, { recursive: true, force: true });
  fs.mkdirSync(temporary, { recursive: true });
  for (const file of files) {
    for (const copy of await makeImageCopies(fs.readFileSync(path.join(source, file))))
      fs.writeFileSync(path.join(temporary, demoImageCopyFile(file, copy.width)), copy.bytes);
  }
  fs.writeFileSync(path.join(temporary, 'stamp.txt'), stamp);
  fs.renameSync(temporary, target);
  return { made: files.length, skipped: false };
}
