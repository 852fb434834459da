//! The browser entry point: mounts the app on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    mosaic_app::dom::mount(mosaic_app::app);
}
