/* Cell Safety Planner: the page's few behaviours, kept out of the markup so
   the Content-Security-Policy can refuse every inline script. Each one is
   declared in the templates with a data- attribute; the pages work without
   JavaScript, these only save a click. */
"use strict";

// htmx requests carry Django's CSRF token as a header (forms also post it).
document.addEventListener("htmx:configRequest", (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) {
    event.detail.headers["X-CSRFToken"] = meta.content;
  }
});

// <select data-autosubmit>: choosing an option submits its form.
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-autosubmit]");
  if (!field || !field.form) {
    return;
  }
  if (field.form.requestSubmit) {
    field.form.requestSubmit();
  } else {
    field.form.submit();
  }
});

// <form data-confirm="question">: asks before the form is sent. Capturing, so
// a "no" stops the submission before htmx or the browser sees it.
document.addEventListener(
  "submit",
  (event) => {
    const question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopPropagation();
    }
  },
  true,
);

// <a data-fill-field="id" data-fill-value="v">: puts v into the form field
// with that id (and tells the form it changed) instead of following the link.
document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-fill-field]");
  if (!link) {
    return;
  }
  const field = document.getElementById(link.dataset.fillField);
  if (!field) {
    return;
  }
  event.preventDefault();
  field.value = link.dataset.fillValue;
  field.dispatchEvent(new Event("change", { bubbles: true }));
});
