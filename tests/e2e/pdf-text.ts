import { inflateSync } from "node:zlib";

// Just enough of PDF to read back what Chromium's page.pdf() printed on each page: its objects,
// Flate streams, the fonts' ToUnicode maps and the text operators. No library needed.

type PdfObject = { dict: string; stream: Buffer | null };

function readObjects(pdf: Buffer) {
  const text = pdf.toString("latin1");
  const objects = new Map<number, PdfObject>();
  for (const match of text.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = match[2]!;
    const start = body.search(/stream\r?\n/);
    if (start === -1) {
      objects.set(Number(match[1]), { dict: body, stream: null });
      continue;
    }
    const dataStart =
      (match.index ?? 0) + match[0].indexOf(body) + start + body.slice(start).indexOf("\n") + 1;
    const length = Number(/\/Length (\d+)/.exec(body.slice(0, start))?.[1]);
    const raw = pdf.subarray(dataStart, dataStart + length);
    const dict = body.slice(0, start);
    objects.set(Number(match[1]), {
      dict,
      stream: dict.includes("/FlateDecode") ? inflateSync(raw) : raw,
    });
  }
  return objects;
}

const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1]);

/** The glyph-to-text map of a font's ToUnicode CMap (bfchar and bfrange entries). */
function toUnicode(cmap: string) {
  const map = new Map<number, string>();
  const chars = (hex: string) =>
    String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((unit) => parseInt(unit, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, from, to] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
      map.set(parseInt(from!, 16), chars(to!));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, from, to, first] of block[1]!.matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g,
    ))
      for (let code = parseInt(from!, 16); code <= parseInt(to!, 16); code++)
        map.set(code, String.fromCodePoint(parseInt(first!, 16) + code - parseInt(from!, 16)));
  return map;
}

/** The text of each printed page, in page order: one line per text object. */
export function pdfPageTexts(pdf: Buffer): string[] {
  const objects = readObjects(pdf);
  const get = (id: number) => objects.get(id);
  const root = [...objects.values()].find(
    (object) => /\/Type \/Pages\b/.test(object.dict) && !/\/Parent /.test(object.dict),
  )!;
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(root.dict)?.[1] ?? "").matchAll(/(\d+) 0 R/g)].map(
    (match) => Number(match[1]),
  );
  return kids.map((pageId) => {
    const page = get(pageId)!;
    const resources = /\/Resources (\d+) 0 R/.test(page.dict)
      ? get(ref(page.dict, "Resources"))!.dict
      : page.dict;
    const fontDict = /\/Font (\d+) 0 R/.test(resources)
      ? get(ref(resources, "Font"))!.dict
      : (/\/Font\s*<<([\s\S]*?)>>/.exec(resources)?.[1] ?? "");
    const fonts = new Map<string, Map<number, string>>();
    for (const [, name, id] of fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)) {
      const unicode = ref(get(Number(id))!.dict, "ToUnicode");
      fonts.set(name!, unicode ? toUnicode(get(unicode)!.stream!.toString("latin1")) : new Map());
    }
    const content = get(ref(page.dict, "Contents"))!.stream!.toString("latin1");
    const lines: string[] = [];
    for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
      let font = new Map<number, string>();
      let line = "";
      for (const [, name, hex] of block[1]!.matchAll(/\/(\w+) [\d.]+ Tf|<([0-9A-Fa-f]+)>/g)) {
        if (name) font = fonts.get(name) ?? new Map();
        else
          for (const glyph of hex!.match(/.{4}/g) ?? [])
            line += font.get(parseInt(glyph, 16)) ?? "";
      }
      lines.push(line);
    }
    return lines.join("\n");
  });
}
