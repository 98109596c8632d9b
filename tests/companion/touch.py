"""A finger on the app's window: Kivy's own test touch (kivy.tests.common.UnitTestTouch of Kivy 2.3, MIT licence),
the same few lines, kept here because importing kivy.tests loads pytest, unittest and Kivy's async test helpers
into every app process a test starts (about 0.3 s of CPU each, and more wall time on a loaded machine).

    finger = UnitTestTouch(x, y)   # window coordinates
    finger.touch_down(); finger.touch_move(x2, y2); finger.touch_up()
"""

from kivy.input.motionevent import MotionEvent


class UnitTestTouch(MotionEvent):
    """One touch, dispatched through Kivy's input (EventLoop.post_dispatch_input), as a real one is."""

    def __init__(self, x, y):
        from kivy.base import EventLoop

        self.eventloop = EventLoop
        win = EventLoop.window
        super().__init__(self.__class__.__name__, 99, {"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)},
                         is_touch=True, type_id="touch")
        self.profile = ["pos"]  # the profile that accepts x, y and pos

    def touch_down(self, *args):
        self.eventloop.post_dispatch_input("begin", self)

    def touch_move(self, x, y):
        win = self.eventloop.window
        self.move({"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)})
        self.eventloop.post_dispatch_input("update", self)

    def touch_up(self, *args):
        self.eventloop.post_dispatch_input("end", self)

    def depack(self, args):
        self.sx = args["x"]  # the position as a ratio of the window's size, set before MotionEvent.depack reads it
        self.sy = args["y"]
        super().depack(args)
