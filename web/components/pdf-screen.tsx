// A document page: "Open the PDF" and the download first, then the PDF in a frame where the browser can show one
// inline (phone browsers cannot: there the frame would be an empty box, so web/styles/sections.css hides it). On paper
// the frame and the buttons step aside for the document's details: a browser prints an embedded PDF as a blank page.
import type { RouteEntry } from "#web/routes/row.ts";
import { sectionTexts } from "#web/texts/sections.ts";

export function PdfScreen({ entry }: { entry: RouteEntry }) {
  const file = entry.pdf ?? "";
  const src = `/pdfs/${file}`;
  return (
    <article className="document">
      <h1>{entry.title}</h1>
      <p className="document-actions">
        <a href={src} className="document-open">
          {sectionTexts.openPdf}
        </a>
        <a href={src} download={file}>
          {sectionTexts.download(file)}
        </a>
      </p>
      <iframe title={sectionTexts.documentFrame(entry.title)} src={src} className="pdf-frame" />
      <div className="print-only">
        <dl>
          <dt>{sectionTexts.documentFile}</dt>
          <dd>{file}</dd>
          <dt>{sectionTexts.documentAddress}</dt>
          <dd>{src}</dd>
        </dl>
        <p>{sectionTexts.printTheDocument}</p>
      </div>
    </article>
  );
}
