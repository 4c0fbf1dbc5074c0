document.querySelectorAll('.filters input').forEach(function (box) {
  box.addEventListener('change', function () {
    document.querySelectorAll('.finding[data-severity="' + box.value + '"]').forEach(function (f) {
      f.hidden = !box.checked;
    });
  });
});
