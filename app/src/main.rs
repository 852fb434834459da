//! The browser entry point: mounts the app on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(mosaic_app::App);
}
