import fs from 'node:fs';
import path from 'node:path';

/**
 * The installation's root folder (package.json, drizzle/, client/dist), found from this module's folder
 * whether the server runs from source (server/src, tsx and tests) or built (server/dist, npm start).
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'drizzle')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../..');
  }
}

export const ROOT = findRoot(import.meta.dirname);
