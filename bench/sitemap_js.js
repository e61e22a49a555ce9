'use strict';
// The sitemap contender of `make bench`: sitemap.js (npm `sitemap` 8)
// writing the same sitemap set as `feed.fcgi write /sitemap.xml DIR`, with
// its streaming API as its README shows it for more than 50,000 URLs:
// SitemapAndIndexStream cutting a new part every 50,000 URLs, each part a
// SitemapStream piped (through gzip, for the gzip set) into a file, the
// index piped into sitemap.xml (sitemap.xml.gz).
//
//   NODE_PATH=DIR/node_modules node bench/sitemap_js.js URLS.tsv OUTDIR plain|gzip
//
// URLS.tsv: one page a line, "URL<TAB>lastmod" (W3C datetime with offset),
// dumped from the database beforehand by bench.py. Parts are named as
// feed.fcgi names them (sitemap-ads-1.xml, ...) and listed in the index
// under http://doska.example/feeds/. Prints "N URLs" on success.
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { once } = require('events');
const { pipeline } = require('stream/promises');
const { createGzip } = require('zlib');
const { SitemapAndIndexStream, SitemapStream } = require('sitemap');

const PUBLISH_URL = 'http://doska.example/feeds/';
const LIMIT = 50000;

async function main() {
  const [input, outDir, mode] = process.argv.slice(2);
  if (!input || !outDir || (mode !== 'plain' && mode !== 'gzip')) {
    console.error('usage: node sitemap_js.js URLS.tsv OUTDIR plain|gzip');
    process.exit(2);
  }
  const gzip = mode === 'gzip';
  const ext = gzip ? '.xml.gz' : '.xml';
  const parts = [];
  const sms = new SitemapAndIndexStream({
    limit: LIMIT,
    lastmodDateOnly: false,
    getSitemapStream: (i) => {
      const name = `sitemap-ads-${i + 1}${ext}`;
      const sitemap = new SitemapStream({ hostname: 'http://doska.example' });
      const file = fs.createWriteStream(path.join(outDir, name));
      // The part's write stream is returned third, so that the index stream
      // waits for the file to be written before it starts the next one.
      const ws = gzip ? sitemap.pipe(createGzip()).pipe(file) : sitemap.pipe(file);
      parts.push(new Promise((resolve, reject) => {
        file.on('finish', resolve);
        file.on('error', reject);
      }));
      return [new URL(name, PUBLISH_URL).toString(), sitemap, ws];
    },
  });
  const index = fs.createWriteStream(path.join(outDir, 'sitemap' + ext));
  const written = gzip ? pipeline(sms, createGzip(), index) : pipeline(sms, index);

  const lines = readline.createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const item = tab < 0 ? { url: line } : { url: line.slice(0, tab), lastmod: line.slice(tab + 1) };
    n++;
    if (!sms.write(item)) await once(sms, 'drain');
  }
  sms.end();
  await written;
  await Promise.all(parts);
  console.log(`${n} URLs`);
}

main().catch((e) => {
  console.error('sitemap_js.js:', e);
  process.exit(1);
});
