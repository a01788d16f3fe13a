//! Payloads of MSG_PROBE_*: the common part, then the kind's tail.

use super::super::messages::{Probe, ProbeTail, UiControl};
use super::Out;

/// Writes a probe message's payload.
pub(super) fn payload(o: &mut Out, p: &Probe) {
    o.u32(p.api_id);
    o.u32(p.pid);
    o.u32(p.tid);
    o.values(&p.args);
    o.value(&p.ret);
    o.u64(p.errno);
    o.u32(p.call_type);
    o.u64(p.caller);
    o.u32(p.reserved.0);
    o.u32(p.reserved.1);
    probe_tail(o, &p.tail);
}

fn ui_control(o: &mut Out, c: &UiControl) {
    o.str(&c.kind);
    o.str(&c.name);
    o.u64(c.address);
}

/// Writes a probe's tail; the screen, network and OpenGL ones in [`ui_tail`].
fn probe_tail(o: &mut Out, tail: &ProbeTail) {
    match tail {
        ProbeTail::Memory {
            size,
            api_type,
            address,
        } => {
            o.u64(*size);
            o.u32(*api_type);
            o.u64(*address);
        }
        ProbeTail::Resource {
            size,
            fd,
            api_type,
            file_size,
            path,
        } => {
            o.u64(*size);
            o.u64(*fd);
            o.u32(*api_type);
            o.u64(*file_size);
            o.str(path);
        }
        ProbeTail::Lifecycle => {}
        ProbeTail::Thread {
            pthread_id,
            tizen_thread_id,
            thread_type,
            api_type,
            class_name,
        } => {
            o.u64(*pthread_id);
            o.u64(*tizen_thread_id);
            o.u32(*thread_type);
            o.u32(*api_type);
            o.str(class_name);
        }
        ProbeTail::Custom {
            handle,
            chart_type,
            name,
            color,
            value,
        } => {
            o.u32(*handle);
            o.u32(*chart_type);
            o.str(name);
            o.u32(*color);
            o.u64(value.to_bits());
        }
        ProbeTail::Sync {
            object,
            sync_type,
            api_type,
        } => {
            o.u64(*object);
            o.u32(*sync_type);
            o.u32(*api_type);
        }
        ProbeTail::Other { bytes, .. } => o.bytes(bytes),
        _ => ui_tail(o, tail),
    }
}

/// Writes the tail of a UI control, UI event, screenshot, scene, network
/// or OpenGL probe.
fn ui_tail(o: &mut Out, tail: &ProbeTail) {
    match tail {
        ProbeTail::UiControl { parent, child } => {
            ui_control(o, parent);
            ui_control(o, child);
        }
        ProbeTail::UiEvent {
            event_type,
            detail,
            x,
            y,
            info1,
            info2,
        } => {
            o.u32(*event_type);
            o.u32(*detail);
            o.u32(*x);
            o.u32(*y);
            o.str(info1);
            o.u32(*info2);
        }
        ProbeTail::Screenshot { path, orientation } => {
            o.str(path);
            o.u32(*orientation);
        }
        ProbeTail::Scene {
            scene,
            form,
            form_address,
            panel,
            panel_address,
            transition,
            user,
        } => {
            o.str(scene);
            o.str(form);
            o.u64(*form_address);
            o.str(panel);
            o.u64(*panel_address);
            o.u64(*transition);
            o.u64(*user);
        }
        ProbeTail::Network {
            object,
            fd,
            api_type,
            ip,
            port,
            total,
            data,
        } => {
            o.u64(*object);
            o.u64(*fd);
            o.u32(*api_type);
            o.u32(*ip);
            o.u32(*port);
            o.u64(*total);
            o.bytes(data);
        }
        ProbeTail::Gl {
            context,
            api_type,
            elapsed_ns,
            value,
        } => {
            o.u64(*context);
            o.u32(*api_type);
            o.u64(*elapsed_ns);
            o.str(value);
        }
        _ => {}
    }
}
