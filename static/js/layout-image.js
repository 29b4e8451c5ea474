// The floor-plan image page (cells/layout_image): a click on the picture
// fills the pixel fields of point 1, then point 2, in the picture's own
// pixels whatever size it is shown at. A file chosen is shown at once (read
// as a data: URL, which the page's img-src allows). Without JavaScript the
// pixels are typed.
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

  const file = document.querySelector("input[type=file][name=file]");
  if (file) {
    file.addEventListener("change", () => {
      const chosen = file.files && file.files[0];
      if (!chosen) {
        return;
      }
      const reader = new FileReader();
      reader.addEventListener("load", () => {
        preview.src = reader.result;
        preview.hidden = false;
        if (hint) {
          hint.hidden = false;
        }
        next = 1;
      });
      reader.readAsDataURL(chosen);
    });
  }
})();
