/** pdf.js's worker module, which pdfjs-dist ships without types: pdf.ts only hands it to pdf.js. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
