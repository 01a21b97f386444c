/** The part of fontkit (pdfkit's font engine, no types of its own) the PDFs use to choose a font per character. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
