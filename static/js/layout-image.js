// The floor-plan image page (cells/layout_image): a click on the picture
// fills the pixel fields of point 1, then point 2, in the picture's own
// pixels whatever size it is shown at. A file chosen is shown at once (read
// as a data: URL, which the page's img-src allows); a PDF is sent to the
// server first, which draws its first page as the upload will, with the
// same pixels, or says why it refuses it. Without JavaScript the pixels are
// typed.
(() => {
  const preview = document.getElementById("layout-image-preview");
  if (!preview) {
    return;
  }
  const hint = document.getElementById("layout-image-hint");
  const field = (name) => document.querySelector(`[data-image-point="${name}"]`);
  let next = 1;

  preview.addEventListener("click", (event) => {
    // The picture inside its border, as shown.
    const box = preview.getBoundingClientRect();
    const left = box.left + preview.clientLeft;
    const top = box.top + preview.clientTop;
    const width = preview.clientWidth;
    const height = preview.clientHeight;
    if (!width || !height || !preview.naturalWidth) {
      return;
    }
    const x = Math.round(((event.clientX - left) / width) * preview.naturalWidth);
    const y = Math.round(((event.clientY - top) / height) * preview.naturalHeight);
    const fx = field(`point${next}_x_px`);
    const fy = field(`point${next}_y_px`);
    if (fx && fy) {
      fx.value = Math.max(0, Math.min(x, preview.naturalWidth));
      fy.value = Math.max(0, Math.min(y, preview.naturalHeight));
    }
    next = next === 1 ? 2 : 1;
  });

  const figure = preview.closest("[data-preview-url]");
  const drawing = document.getElementById("layout-image-drawing");
  const failure = document.getElementById("layout-image-error");

  const show = (url) => {
    preview.src = url;
    preview.hidden = false;
    if (hint) {
      hint.hidden = false;
    }
    next = 1;
  };

  const asDataUrl = (blob) =>
    new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.addEventListener("load", () => resolve(reader.result));
      reader.addEventListener("error", () => reject(reader.error));
      reader.readAsDataURL(blob);
    });

  // A PDF by its content, as the server decides: "%PDF-" in the first 1,024 bytes.
  const isPdf = async (chosen) => {
    const head = new Uint8Array(await chosen.slice(0, 1024).arrayBuffer());
    return String.fromCharCode(...head).includes("%PDF-");
  };

  // The PDF's first page, drawn by the server; its refusal shown otherwise,
  // and the picture shown before (the stored one) shown again.
  const drawPdf = async (chosen, form) => {
    const body = new FormData();
    body.append("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    body.append("file", chosen);
    const before = preview.hidden;
    preview.hidden = true;
    if (hint) {
      hint.hidden = true;
    }
    drawing.hidden = false;
    let refusal = figure.dataset.previewFailed;
    try {
      const response = await fetch(figure.dataset.previewUrl, {
        method: "POST",
        body,
        credentials: "same-origin",
      });
      if (response.ok) {
        show(await asDataUrl(await response.blob()));
        return;
      }
      if ((response.headers.get("Content-Type") || "").startsWith("text/plain")) {
        refusal = await response.text();
      }
    } catch {
      // No answer: the generic refusal; the upload draws the page anyway.
    } finally {
      drawing.hidden = true;
    }
    failure.textContent = refusal;
    failure.hidden = false;
    preview.hidden = before;
    if (hint) {
      hint.hidden = before;
    }
  };

  const file = document.querySelector("input[type=file][name=file]");
  if (file) {
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      if (failure) {
        failure.hidden = true;
        failure.textContent = "";
      }
      if (!chosen) {
        return;
      }
      if (figure && drawing && failure && (await isPdf(chosen))) {
        await drawPdf(chosen, file.form);
      } else {
        show(await asDataUrl(chosen));
      }
    });
  }
})();
