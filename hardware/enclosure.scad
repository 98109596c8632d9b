// Formula 1 dashboard enclosure: a base tray holding the Pico and a front panel (lid) holding the OLED, five
// 12 mm tactile buttons (UP, DOWN, OK, CARD, BACK), the turn LED and the piezo.
// Parametric: measure your parts and change the numbers below. Units are mm.
// Render:  make stl   (writes hardware/build/enclosure.stl)  or  openscad -o out.stl -D 'part="lid"' enclosure.scad
// Layout seen from the front, USB cable leaving at the top edge:
//
//        [piezo holes]   [  OLED  ]   (LED)
//          UP                         CARD
//                        OK
//          DOWN                       BACK

part = "both";      // "both" (print layout), "base", "lid" or "assembly" (preview only)
battery = 0;        // 1: a Pico W dashboard without a cable (README "A Pico W dashboard"): the base also holds a LiPo
                    // cell in a cradle, its charger board on ledges, and openings for the charger's USB socket and a
                    // power switch
$fn = 24;           // modest on purpose: keeps the render (and the test that runs it) fast

// Box
wall = 2;
floor_t = 2;
lid_t = 2;
inner_w = 84;       // inside, left to right
inner_d = 78;       // inside, bottom (player) edge to top (cable) edge
inner_h = 30;       // inside height of the base, floor to lid
corner_r = 3;       // outside corner rounding
post_d = 7;         // lid screw posts in the base corners
lid_screw_d = 3.4;  // M3 clearance in the lid
lid_pilot_d = 2.5;  // M3 self-tapping pilot in the posts

// Raspberry Pi Pico / Pico 2 (same outline and holes)
pico_w = 21;
pico_l = 51;
pico_hole_dx = 11.4;    // between mounting holes, across
pico_hole_dy = 47;      // between mounting holes, along
pico_standoff_h = 10;   // 10 leaves room for header pins pointing down; 3 if wires are soldered in directly
pico_standoff_d = 5;
m2_pilot_d = 1.7;       // M2 self-tapping pilot
usb_cut_w = 12;         // opening for the micro-USB plug's moulding
usb_cut_h = 8;
usb_gap = 1;            // Pico's USB edge to the top wall; the socket's overhang reaches into the opening

// SSD1306 0.96" I2C OLED module (4 pins). Modules vary: measure yours.
oled_pcb_w = 27.3;
oled_pcb_h = 27.8;
oled_hole_dx = 23.0;    // between mounting holes
oled_hole_dy = 23.5;
oled_view_w = 24;       // window over the 21.7 x 10.9 mm active area
oled_view_h = 13;
oled_view_dy = 1.5;     // window centre above the module centre (the glass sits nearer the pin edge)
oled_post_h = 1.8;      // about the glass thickness, so the glass rests against the panel
oled_cy = 18;           // module centre, from the panel centre

// Buttons: 12 x 12 mm tactile switches on a perfboard screwed under the panel
btn_hole_d = 12.8;      // for round caps of about 12 mm
btn_body = 12;
btn_pitch_x = 20;
btn_pitch_y = 20;
btn_cy = -20;           // centre of the button cluster (OK sits here)
board_gap = 7;          // panel underside to perfboard top: caps should stand 1-2 mm proud; adjust to your caps
board_post_d = 5;

// Turn LED (5 mm) and piezo sound holes
led_hole_d = 5.2;
led_pos = [28, 22];
piezo_pos = [-28, 22];
sound_hole_d = 1.8;

// The battery (battery = 1): a flat LiPo cell, its charger board (a TP4056 module with a USB-C socket and protection)
// and a slide switch, all on the base's floor beside the Pico (whose standoffs leave its underside free).
cell_w = 30;            // a 603048 cell (about 850 mAh): 6 x 30 x 48 mm; measure yours
cell_l = 48;
cell_h = 6.5;           // with its swelling margin
cell_cx = -25;          // the cradle's centre, left of the Pico (seen from the front)
cradle_t = 1.2;         // cradle wall
cradle_h = 4;
charger_w = 17.5;       // TP4056 USB-C module
charger_l = 28.5;
charger_cy = 0;         // its USB socket at the right wall, centred here
charger_usb_w = 10;     // opening for a USB-C plug
charger_usb_h = 4.5;
charger_pcb_z = 1.5;    // the ledges under its board
switch_w = 9;           // opening for a slide switch (SS12D00, 8.5 x 3.6 mm body)
switch_h = 4;
switch_cy = -22;

outer_w = inner_w + 2 * wall;
outer_d = inner_d + 2 * wall;
base_h = floor_t + inner_h;
// Posts sink 1 mm into the walls: a post merely touching a wall would leave a non-manifold seam.
post_xy = [inner_w / 2 - post_d / 2 + 1, inner_d / 2 - post_d / 2 + 1];
pico_cy = inner_d / 2 - usb_gap - pico_l / 2;  // USB end of the Pico next to the top wall
buttons = [  // name, x, y
    ["UP", -btn_pitch_x, btn_cy + btn_pitch_y / 2],
    ["DOWN", -btn_pitch_x, btn_cy - btn_pitch_y / 2],
    ["OK", 0, btn_cy],
    ["CARD", btn_pitch_x, btn_cy + btn_pitch_y / 2],
    ["BACK", btn_pitch_x, btn_cy - btn_pitch_y / 2],
];
// Perfboard posts sit in the gaps between the button columns.
board_posts = [for (sx = [-1, 1], sy = [-1, 1]) [sx * btn_pitch_x / 2, btn_cy + sy * (btn_pitch_y / 2 + 4)]];

// Everything must fit inside the walls and clear the lid screw posts: fail loudly rather than print junk.
function inside(x, y, hw, hh) = abs(x) + hw <= inner_w / 2 && abs(y) + hh <= inner_d / 2;
function clear_of_posts(x, y, hw, hh) =
    abs(x) + hw <= post_xy[0] - post_d / 2 || abs(y) + hh <= post_xy[1] - post_d / 2;
assert(pico_l + usb_gap <= inner_d, "the Pico does not fit: make inner_d larger");
assert(inside(0, pico_cy, pico_w / 2, pico_l / 2), "the Pico does not fit inside the walls");
assert(clear_of_posts(0, pico_cy, pico_w / 2, pico_l / 2), "the Pico hits a lid screw post");
assert(inside(0, oled_cy, oled_pcb_w / 2, oled_pcb_h / 2), "the OLED module does not fit: move oled_cy");
assert(clear_of_posts(0, oled_cy, oled_pcb_w / 2, oled_pcb_h / 2), "the OLED module hits a lid screw post");
for (b = buttons) {
    assert(inside(b[1], b[2], btn_body / 2, btn_body / 2), str("button ", b[0], " does not fit inside the walls"));
    assert(clear_of_posts(b[1], b[2], btn_body / 2, btn_body / 2), str("button ", b[0], " hits a lid screw post"));
    assert(b[2] + btn_hole_d / 2 < oled_cy - oled_pcb_h / 2, str("button ", b[0], " overlaps the OLED"));
}
assert(btn_pitch_x - btn_body >= board_post_d + 2, "no room for the perfboard posts between the button columns");
assert(pico_standoff_h + 1 + 4 <= inner_h - board_gap - 1.6 - 2, "the Pico and the button board collide: raise inner_h");
if (battery == 1) {
    cradle = [cell_cx, 0, cell_w / 2 + cradle_t, cell_l / 2 + cradle_t];
    assert(inside(cradle[0], cradle[1], cradle[2], cradle[3]), "the battery does not fit inside the walls");
    assert(clear_of_posts(cradle[0], cradle[1], cradle[2], cradle[3]), "the battery hits a lid screw post");
    assert(abs(cell_cx) - cradle[2] >= pico_hole_dx / 2 + pico_standoff_d / 2, "the battery hits the Pico's standoffs");
    assert(cell_h + 2 <= inner_h - board_gap - 1.6 - 3, "the battery and the button board collide: raise inner_h");
    charger_cx = inner_w / 2 - charger_l / 2;
    assert(charger_cx - charger_l / 2 >= pico_hole_dx / 2 + pico_standoff_d / 2, "the charger hits the Pico's standoffs");
    assert(clear_of_posts(charger_cx, charger_cy, charger_l / 2, charger_w / 2), "the charger hits a lid screw post");
    assert(abs(switch_cy - charger_cy) >= charger_w / 2 + switch_w / 2 + 2, "the switch overlaps the charger's socket");
}

module rounded_box(w, d, h, r) {
    hull() for (sx = [-1, 1], sy = [-1, 1]) translate([sx * (w / 2 - r), sy * (d / 2 - r), 0]) cylinder(r = r, h = h);
}

// A post with a pilot hole for a self-tapping screw. Posts start 0.01 mm inside what they stand on, so the
// union never has coincident faces.
module standoff(h, d, pilot) {
    difference() {
        cylinder(d = d, h = h);
        translate([0, 0, 0.6]) cylinder(d = pilot, h = h);
    }
}

module base() {
    difference() {
        union() {
            difference() {
                rounded_box(outer_w, outer_d, base_h, corner_r);
                translate([-inner_w / 2, -inner_d / 2, floor_t]) cube([inner_w, inner_d, inner_h + 1]);
            }
            // Corner posts for the lid screws, trimmed to the rounded outside.
            intersection() {
                for (sx = [-1, 1], sy = [-1, 1]) translate([sx * post_xy[0], sy * post_xy[1], 0])
                    cylinder(d = post_d, h = base_h);
                translate([0, 0, -1]) rounded_box(outer_w - 1, outer_d - 1, base_h + 2, corner_r);
            }
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * pico_hole_dx / 2, pico_cy + sy * pico_hole_dy / 2, floor_t - 0.01])
                    standoff(pico_standoff_h + 0.01, pico_standoff_d, m2_pilot_d);
            if (battery == 1) battery_holders();
        }
        for (sx = [-1, 1], sy = [-1, 1]) translate([sx * post_xy[0], sy * post_xy[1], floor_t])
            cylinder(d = lid_pilot_d, h = base_h);
        if (battery == 1) {
            // The charger's USB socket and the power switch, through the right wall (seen from the front).
            translate([inner_w / 2 - 1, charger_cy - charger_usb_w / 2, floor_t + charger_pcb_z])
                cube([wall + 2, charger_usb_w, charger_usb_h]);
            translate([inner_w / 2 - 1, switch_cy - switch_w / 2, floor_t + 1]) cube([wall + 2, switch_w, switch_h]);
        }
        // USB plug opening in the top wall, centred on the Pico's socket (which sits on top of the board).
        usb_z = floor_t + pico_standoff_h + 1 + 1.5;
        translate([-usb_cut_w / 2, inner_d / 2 - 1, max(floor_t, usb_z - usb_cut_h / 2)])
            cube([usb_cut_w, wall + 2, usb_cut_h]);
    }
}

// The cell's cradle (a low rim: a strip of foam tape holds the cell down) and the charger board's two ledges.
module battery_holders() {
    translate([cell_cx, 0, floor_t - 0.01]) difference() {
        translate([-cell_w / 2 - cradle_t, -cell_l / 2 - cradle_t, 0])
            cube([cell_w + 2 * cradle_t, cell_l + 2 * cradle_t, cradle_h + 0.01]);
        translate([-cell_w / 2, -cell_l / 2, -1]) cube([cell_w, cell_l, cradle_h + 2]);
        translate([cell_w / 2 - 1, -4, -1]) cube([cradle_t + 2, 8, cradle_h + 2]);  // the cell's leads leave here
    }
    for (sy = [-1, 1])
        translate([inner_w / 2 - charger_l + 2, charger_cy + sy * (charger_w / 2 - 1.5) - 1, floor_t - 0.01])
            cube([charger_l - 1, 2, charger_pcb_z + 0.01]);
}

module lid() {
    // Modelled the way it is printed: front face down on the bed at z = 0, posts pointing up.
    // Mirrored in x so that, turned over onto the base, the layout reads as drawn at the top of this file.
    mirror([1, 0, 0]) difference() {
        union() {
            rounded_box(outer_w, outer_d, lid_t, corner_r);
            for (sx = [-1, 1], sy = [-1, 1])
                translate([sx * oled_hole_dx / 2, oled_cy + sy * oled_hole_dy / 2, lid_t - 0.01])
                    standoff(oled_post_h + 0.01, 4.5, m2_pilot_d);
            for (p = board_posts) translate([p[0], p[1], lid_t - 0.01])
                standoff(board_gap + 0.01, board_post_d, m2_pilot_d);
        }
        for (sx = [-1, 1], sy = [-1, 1]) translate([sx * post_xy[0], sy * post_xy[1], -1])
            cylinder(d = lid_screw_d, h = lid_t + 2);
        translate([-oled_view_w / 2, oled_cy + oled_view_dy - oled_view_h / 2, -1])
            cube([oled_view_w, oled_view_h, lid_t + 2]);
        for (b = buttons) translate([b[1], b[2], -1]) cylinder(d = btn_hole_d, h = lid_t + 2);
        translate([led_pos[0], led_pos[1], -1]) cylinder(d = led_hole_d, h = lid_t + 2);
        for (a = [0 : 60 : 300]) translate([piezo_pos[0] + 3.5 * cos(a), piezo_pos[1] + 3.5 * sin(a), -1])
            cylinder(d = sound_hole_d, h = lid_t + 2);
        translate([piezo_pos[0], piezo_pos[1], -1]) cylinder(d = sound_hole_d, h = lid_t + 2);
    }
}

if (part == "base") base();
else if (part == "lid") lid();
else if (part == "assembly") {
    base();
    translate([0, 0, base_h + lid_t]) rotate([0, 180, 0]) lid();
} else {
    base();
    translate([outer_w + 10, 0, 0]) lid();
}
